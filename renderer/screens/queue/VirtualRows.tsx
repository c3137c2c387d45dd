import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import type { Predictions } from '../../queries/queue-sort.ts';
import { SortableQueueRow } from './SortableQueueRow.tsx';

export const ROW_HEIGHT = 56;

export interface RowHandlers {
  onRowClick(item: QueueItem, event: MouseEvent): void;
  onToggle(item: QueueItem): void;
  onOpen(item: QueueItem): void;
  onMoveTo(item: QueueItem, position: number): void;
  onRemove(item: QueueItem): void;
}

export interface VirtualRowsProps {
  label: string;
  items: readonly QueueItem[];
  selected: ReadonlySet<string>;
  predictions: Predictions;
  pending: ReadonlySet<string>;
  sortable: boolean;
  /** A drag is under way (its keys are dnd-kit's, not Alt+arrows). */
  dragging: boolean;
  handlers: RowHandlers;
}

/**
 * The scrolling part of the queue: only the rows on screen plus a margin are in the page. It is
 * its own component so a scroll re-renders it alone, not the drag-and-drop context around it;
 * rows are memoised, so only the rows that appear render.
 */
export function VirtualRows({ label, items, selected, predictions, pending, sortable, dragging, handlers }: VirtualRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => items[index]!.ref,
    useFlushSync: false,
  });

  /** Alt+↑/↓ moves the focused row's title one place, keeping focus on the same control. */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || dragging || !sortable) return;
    const rowElement = (event.target as HTMLElement).closest<HTMLElement>('[data-ref]');
    const item = rowElement ? items.find((i) => i.ref === rowElement.dataset.ref) : undefined;
    if (!item || item.position === null) return;
    event.preventDefault();
    const position = item.position + (event.key === 'ArrowUp' ? -1 : 1);
    if (position < 1 || position > items.length) return;
    const control = (event.target as HTMLElement).className.split(' ')[0];
    handlers.onMoveTo(item, position);
    virtualizer.scrollToIndex(position - 1, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-ref="${CSS.escape(item.ref)}"] .${control}`)?.focus());
  }

  return (
    <div className="queue-scroll" ref={scrollRef} onKeyDown={onKeyDown}>
      <div role="list" aria-label={label} className="queue-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={row.key}
              role="listitem"
              aria-posinset={row.index + 1}
              aria-setsize={items.length}
              className={pending.has(item.ref) ? 'queue-slot pending' : 'queue-slot'}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
            >
              <SortableQueueRow
                item={item}
                total={items.length}
                selected={selected.has(item.ref)}
                predicted={predictions.get(item.ref)}
                pending={pending.has(item.ref)}
                sortable={sortable}
                {...handlers}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
