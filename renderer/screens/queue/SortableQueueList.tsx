import {
  closestCenter, DndContext, DragOverlay, KeyboardSensor, PointerSensor, useSensor, useSensors,
  type DragEndEvent, type DragStartEvent, type Modifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import { QueueRow } from '../../components/queue/QueueRow.tsx';
import type { Predictions } from '../../queries/queue-sort.ts';
import { instructions, queueAnnouncements } from './announcements.ts';
import { VirtualRows, type RowHandlers } from './VirtualRows.tsx';
import type { Selection } from './useSelection.ts';

export interface SortableQueueListProps {
  label: string;
  items: readonly QueueItem[];
  selection: Selection;
  predictions: Predictions;
  /** Titles whose edit waits for the service (offline). */
  pending: ReadonlySet<string>;
  /** false while a filter hides part of the queue: positions would be ambiguous. */
  sortable: boolean;
  onMove(item: QueueItem, position: number): void;
  onRemove(item: QueueItem): void;
  onOpen(item: QueueItem): void;
}

/** Dragging moves rows up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/**
 * The queue as a virtualised list (only the rows on screen, plus a margin, are in the page) that
 * sorts by drag with the pointer or the keyboard (dnd-kit). Every title stays in the sortable
 * context while its row is unmounted, so a drag can travel the whole queue with autoscroll; the
 * overlay carries the dragged row when its own row scrolls out.
 */
export function SortableQueueList({ label, items, selection, predictions, pending, sortable, onMove, onRemove, onOpen }: SortableQueueListProps) {
  const [activeRef, setActiveRef] = useState<string | null>(null);
  const refs = useMemo(() => items.map((i) => i.ref), [items]);
  const byRef = useMemo(() => new Map(items.map((i) => [i.ref, i])), [items]);
  const latest = useRef({ refs, byRef, selection, onMove, onRemove, onOpen });
  latest.current = { refs, byRef, selection, onMove, onRemove, onOpen };
  // Stable handlers, so a scroll re-renders only the rows that appear (rows are memoised).
  const rowHandlers = useMemo<RowHandlers>(
    () => ({
      onRowClick: (item: QueueItem, event: MouseEvent) =>
        latest.current.selection.click(item.ref, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey }),
      onToggle: (item: QueueItem) => latest.current.selection.toggle(item.ref),
      onOpen: (item: QueueItem) => latest.current.onOpen(item),
      onMoveTo: (item: QueueItem, position: number) => latest.current.onMove(item, position),
      onRemove: (item: QueueItem) => latest.current.onRemove(item),
    }),
    [],
  );

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const announcements = useMemo(
    () => queueAnnouncements({ order: () => latest.current.refs, titleOf: (ref) => latest.current.byRef.get(ref)?.title ?? 'the title' }),
    [],
  );

  function onDragStart({ active }: DragStartEvent) {
    setActiveRef(String(active.id));
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setActiveRef(null);
    if (!over || over.id === active.id) return;
    const item = byRef.get(String(active.id));
    const target = refs.indexOf(String(over.id));
    if (item && target >= 0) onMove(item, target + 1);
  }

  const active = activeRef ? byRef.get(activeRef) : undefined;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      accessibility={{ announcements, screenReaderInstructions: instructions }}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setActiveRef(null)}
    >
      <SortableContext items={refs} strategy={verticalListSortingStrategy} disabled={!sortable}>
        <VirtualRows
          label={label}
          items={items}
          selected={selection.selected}
          predictions={predictions}
          pending={pending}
          sortable={sortable}
          dragging={activeRef !== null}
          handlers={rowHandlers}
        />
      </SortableContext>
      <DragOverlay dropAnimation={{ duration: 150, easing: 'cubic-bezier(0.2, 0, 0, 1)' }}>
        {active ? (
          <div className="queue-overlay">
            <QueueRow lifted item={active} total={items.length} selected={selection.selected.has(active.ref)} predicted={predictions.get(active.ref)} />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
