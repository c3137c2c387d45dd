import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo, useMemo } from 'react';
import { QueueRow, type QueueRowProps } from '../../components/queue/QueueRow.tsx';

/**
 * A queue row registered with dnd-kit: its handle picks it up, its body shifts while others move.
 * Every row mounted or unmounted by a scroll changes dnd-kit's context, which renders each
 * registered row again: the row itself (QueueRow, memoised) renders only when what it shows changed.
 */
export const SortableQueueRow = memo(function SortableQueueRow(
  props: Omit<QueueRowProps, 'handleRef' | 'handleProps' | 'ghost'> & { sortable: boolean },
) {
  const { sortable, ...row } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: row.item.ref,
    disabled: !sortable,
  });
  const handleProps = useMemo(
    () => (sortable ? { ...attributes, ...listeners } : undefined),
    [sortable, attributes, listeners],
  );
  return (
    <div
      ref={setNodeRef}
      className="queue-sortable"
      style={{ transform: CSS.Translate.toString(transform) ?? undefined, transition }}
    >
      <QueueRow {...row} ghost={isDragging} handleRef={setActivatorNodeRef} handleProps={handleProps} />
    </div>
  );
});
