import {
  closestCenter,
  DndContext,
  DragOverlay,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
  type Modifier,
} from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import { QueueRow } from '../../components/queue/QueueRow.tsx';
import type { Predictions } from '../../queries/queue-sort.ts';
import { moveRef, renumber } from '../../../shared/pure/queue-order.ts';
import { instructions, queueAnnouncements } from './announcements.ts';
import { useHeldWhileDragging } from './useHeldWhileDragging.ts';
import { useKeyboardLift, type Lift } from './useKeyboardLift.ts';
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
  onMove: (item: QueueItem, position: number) => void;
  /** Moves a title `delta` places from where the edits made so far left it; its new position, or null. */
  onMoveBy: (item: QueueItem, delta: number) => number | null;
  onRemove: (item: QueueItem) => void;
  onOpen: (item: QueueItem) => void;
  /** A pointer drag starts (true) or ends, dropped or cancelled (false). */
  onDragChange?: (dragging: boolean) => void;
}

/** Dragging moves rows up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/** The list as it would be with the lifted title dropped where it is now: the others make room. */
function preview(
  items: readonly QueueItem[],
  refs: readonly string[],
  byRef: ReadonlyMap<string, QueueItem>,
  lift: Lift | null,
): readonly QueueItem[] {
  if (!lift || lift.to === lift.from || !byRef.has(lift.ref)) return items;
  return renumber(moveRef(refs, lift.ref, lift.to + 1).map((ref) => byRef.get(ref)!));
}

function dropAt(
  now: { byRef: ReadonlyMap<string, QueueItem>; onMove(item: QueueItem, position: number): void },
  ref: string,
  position: number,
): void {
  const item = now.byRef.get(ref);
  if (item) now.onMove(item, position);
}

/**
 * The queue as a virtualised list (only the rows on screen, plus a margin, are in the page) that
 * sorts by drag with the pointer (dnd-kit) or the keyboard (useKeyboardLift: by places, not by
 * coordinates, so it can travel the whole queue). Every title stays in the sortable context while
 * its row is unmounted, so a pointer drag can travel the whole queue with autoscroll; the overlay
 * carries the dragged row when its own row scrolls out.
 */
export function SortableQueueList({
  label,
  items: latestItems,
  selection,
  predictions,
  pending,
  sortable,
  onMove,
  onMoveBy,
  onRemove,
  onOpen,
  onDragChange,
}: SortableQueueListProps) {
  const [activeRef, setActive] = useState<string | null>(null);
  const setActiveRef = (ref: string | null) => {
    setActive(ref);
    onDragChange?.(ref !== null);
  };
  const [keyboardLift, setKeyboardLift] = useState(false);
  // A live change waits while a title is in the person's hand (pointer or keyboard).
  const items = useHeldWhileDragging(latestItems, activeRef !== null || keyboardLift);
  const refs = useMemo(() => items.map((i) => i.ref), [items]);
  const byRef = useMemo(() => new Map(items.map((i) => [i.ref, i])), [items]);
  // What the stable handlers below act on, as of the last render committed (read in events only).
  const latest = useRef({ byRef, selection, onMove, onMoveBy, onRemove, onOpen });
  useLayoutEffect(() => {
    latest.current = { byRef, selection, onMove, onMoveBy, onRemove, onOpen };
  });
  // Stable handlers, so a scroll re-renders only the rows that appear (rows are memoised).
  const rowHandlers = useMemo<RowHandlers>(
    () => ({
      onRowClick: (item: QueueItem, event: MouseEvent) =>
        latest.current.selection.click(item.ref, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey }),
      onToggle: (item: QueueItem) => latest.current.selection.toggle(item.ref),
      onOpen: (item: QueueItem) => latest.current.onOpen(item),
      onMoveTo: (item: QueueItem, position: number) => latest.current.onMove(item, position),
      onMoveBy: (item: QueueItem, delta: number) => latest.current.onMoveBy(item, delta),
      onRemove: (item: QueueItem) => latest.current.onRemove(item),
    }),
    [],
  );

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const reader = useMemo(
    () => ({ order: () => refs, titleOf: (ref: string) => byRef.get(ref)?.title ?? 'the title' }),
    [refs, byRef],
  );
  const announcements = useMemo(() => queueAnnouncements(reader), [reader]);
  const keys = useKeyboardLift(
    useMemo(
      () => ({
        ...reader,
        onDrop: (ref: string, position: number) => dropAt(latest.current, ref, position),
        onLiftChange: setKeyboardLift,
      }),
      [reader],
    ),
    latestItems,
  );
  const shown = useMemo(() => preview(items, refs, byRef, keys.lifted), [items, refs, byRef, keys.lifted]);

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
          items={shown}
          lifted={keys.lifted?.ref ?? null}
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
            <QueueRow
              lifted
              item={active}
              total={items.length}
              selected={selection.selected.has(active.ref)}
              predicted={predictions.get(active.ref)}
            />
          </div>
        ) : null}
      </DragOverlay>
      <p id="queue-announcements" className="visually-hidden" role="status" aria-live="assertive" aria-atomic="true">
        {keys.announcement}
      </p>
    </DndContext>
  );
}
