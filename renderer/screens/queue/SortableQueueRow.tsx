import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo } from 'react';
import { QueueRow, type QueueRowProps } from '../../components/queue/QueueRow.tsx';

/** A queue row registered with dnd-kit: its handle picks it up, its body shifts while others move. */
export const SortableQueueRow = memo(function SortableQueueRow(props: Omit<QueueRowProps, 'handle' | 'ghost'> & { sortable: boolean }) {
  const { sortable, ...row } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: row.item.ref, disabled: !sortable });
  return (
    <div ref={setNodeRef} className="queue-sortable" style={{ transform: CSS.Translate.toString(transform), transition }}>
      <QueueRow {...row} ghost={isDragging} handle={sortable ? { ref: setActivatorNodeRef, props: { ...attributes, ...listeners } } : undefined} />
    </div>
  );
});
