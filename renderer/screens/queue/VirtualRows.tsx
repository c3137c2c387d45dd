import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { landFocus, nearRow } from '../../components/queue/land-focus.ts';
import { usePageScroll } from './usePageScroll.ts';
import { useFocusKeptThroughRemoval } from './useFocusKeptThroughRemoval.ts';
import { useScrollAnchor } from './useScrollAnchor.ts';
import type { QueueItem } from '../../../shared/models.ts';
import type { Predictions } from '../../queries/queue-sort.ts';
import { ListScrolling } from '../../components/queue/QueueArt.tsx';
import { SortableQueueRow } from './SortableQueueRow.tsx';

export const ROW_HEIGHT = 56;

export interface RowHandlers {
  onRowClick(item: QueueItem, event: MouseEvent): void;
  onToggle(item: QueueItem): void;
  onOpen(item: QueueItem): void;
  onMoveTo(item: QueueItem, position: number): void;
  onMoveBy(item: QueueItem, delta: number): number | null;
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
  /** The title picked up with the keyboard: kept rendered and in view wherever it goes. */
  lifted: string | null;
  handlers: RowHandlers;
}

/**
 * The queue's rows, in the page's own scroll (the content column scrolls; the list is as tall as
 * the queue): only the rows on screen plus a margin are in the page. It is its own component so a
 * scroll re-renders it alone, not the drag-and-drop context around it; rows are memoised, so only
 * the rows that appear render.
 */
export function VirtualRows({
  label,
  items,
  selected,
  predictions,
  pending,
  sortable,
  dragging,
  lifted,
  handlers,
}: VirtualRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const page = usePageScroll(scrollRef);
  const release = useScrollAnchor(items, page, ROW_HEIGHT, dragging || lifted !== null);
  const [focused, setFocused] = useState<string | null>(null);
  const focusedControl = useRef<HTMLElement | null>(null);
  const liftedIndex = useMemo(() => (lifted ? items.findIndex((i) => i.ref === lifted) : -1), [items, lifted]);
  const focusedIndex = useMemo(() => (focused ? items.findIndex((i) => i.ref === focused) : -1), [items, focused]);
  // The row with focus and the lifted row stay in the page when scrolled away: their keys keep arriving.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      for (const keep of [focusedIndex, liftedIndex]) if (keep >= 0 && !indexes.includes(keep)) indexes.push(keep);
      return indexes.sort((a, b) => a - b);
    },
    [focusedIndex, liftedIndex],
  );
  // Its functions must never be memoised, and nothing memoises them: no React Compiler builds this app.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: page.element,
    scrollMargin: page.margin,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => items[index]!.ref,
    rangeExtractor,
    useFlushSync: false,
  });

  // A removed row hands focus to the row that takes its place (the one before at the end, else the list).
  // The person's own edits move rows where they asked; the scroll anchor is for other devices' edits.
  const rowHandlers = useMemo<RowHandlers>(
    () => ({
      ...handlers,
      onMoveTo: (item, position) => {
        release();
        handlers.onMoveTo(item, position);
      },
      onMoveBy: (item, delta) => {
        release();
        return handlers.onMoveBy(item, delta);
      },
      onRemove: (item: QueueItem) => {
        release();
        const control = document.activeElement;
        const index = Number(control?.closest('[role="listitem"]')?.getAttribute('aria-posinset') ?? 0) - 1;
        handlers.onRemove(item);
        const rowAt = (i: number) => listRef.current?.querySelector(`[role="listitem"][aria-posinset="${i + 1}"]`);
        landFocus(control, () => nearRow(rowAt, Math.max(index, 0), control, () => listRef.current));
      },
    }),
    [handlers, release],
  );

  useFocusKeptThroughRemoval(items, focused, focusedControl, listRef);

  useEffect(() => {
    if (liftedIndex >= 0) virtualizer.scrollToIndex(liftedIndex, { align: 'auto' });
  }, [liftedIndex, virtualizer]);

  /** Alt+↑/↓ moves the focused row's title one place, keeping focus on the same control. */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || dragging || !sortable) return;
    const rowElement = (event.target as HTMLElement).closest<HTMLElement>('[data-ref]');
    const item = rowElement ? items.find((i) => i.ref === rowElement.dataset.ref) : undefined;
    if (!item || item.position === null) return;
    event.preventDefault();
    release();
    const position = handlers.onMoveBy(item, event.key === 'ArrowUp' ? -1 : 1);
    if (position === null) return;
    const control = (event.target as HTMLElement).className.split(' ')[0];
    virtualizer.scrollToIndex(position - 1, { align: 'auto' });
    requestAnimationFrame(() => {
      if (document.activeElement !== document.body) return;
      scrollRef.current?.querySelector<HTMLElement>(`[data-ref="${CSS.escape(item.ref)}"] .${control}`)?.focus();
    });
  }

  function onFocus(event: FocusEvent<HTMLDivElement>) {
    focusedControl.current = event.target;
    setFocused((event.target as HTMLElement).closest<HTMLElement>('[data-ref]')?.dataset.ref ?? null);
  }

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    if (!scrollRef.current?.contains(event.relatedTarget)) setFocused(null);
  }

  return (
    // Delegation: Alt+↑/↓ and focus tracking for the controls of every row inside.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div className="queue-scroll" ref={scrollRef} onKeyDown={onKeyDown} onFocus={onFocus} onBlur={onBlur}>
      <ListScrolling.Provider value={virtualizer.isScrolling}>
        <div
          role="list"
          aria-label={label}
          className="queue-list"
          ref={listRef}
          tabIndex={-1}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index]!;
            return (
              <div
                key={row.key}
                role="listitem"
                aria-posinset={row.index + 1}
                aria-setsize={items.length}
                className={['queue-slot', pending.has(item.ref) ? 'pending' : '', item.ref === lifted ? 'lifted' : '']
                  .join(' ')
                  .trim()}
                style={{ transform: `translateY(${row.start - page.margin}px)`, height: ROW_HEIGHT }}
              >
                <SortableQueueRow
                  item={item}
                  total={items.length}
                  selected={selected.has(item.ref)}
                  predicted={predictions.get(item.ref)}
                  pending={pending.has(item.ref)}
                  sortable={sortable}
                  {...rowHandlers}
                />
              </div>
            );
          })}
        </div>
      </ListScrolling.Provider>
    </div>
  );
}
