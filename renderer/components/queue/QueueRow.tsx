import { memo, type HTMLAttributes, type MouseEvent, type Ref } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import { AvailabilityBadge } from './AvailabilityBadge.tsx';
import { PositionField } from './PositionField.tsx';
import { QueueArt } from './QueueArt.tsx';
import { PredictedStars } from './PredictedStars.tsx';
import { formatRuntime } from './words.ts';

/** What the drag handle needs from dnd-kit's useSortable (attributes and listeners). */
export type HandleProps = HTMLAttributes<HTMLButtonElement>;

export interface QueueRowProps {
  item: QueueItem;
  total: number;
  selected: boolean;
  predicted: number | null | undefined;
  /** The dragged row's place holder: drawn faint while its overlay moves. */
  ghost?: boolean;
  /** The copy that follows the pointer while dragging (its grip shown, not a control). */
  lifted?: boolean;
  /** Edited while the service was unreachable: the edit waits to be sent. */
  pending?: boolean;
  /** The drag handle's element ref and props (dnd-kit's activator); without them the row has no handle. */
  handleRef?: Ref<HTMLButtonElement> | undefined;
  handleProps?: HandleProps | undefined;
  onRowClick?: (item: QueueItem, event: MouseEvent) => void;
  onToggle?: (item: QueueItem) => void;
  onOpen?: (item: QueueItem) => void;
  onMoveTo?: (item: QueueItem, position: number) => void;
  onRemove?: (item: QueueItem) => void;
}

function Grip() {
  return (
    <svg viewBox="0 0 10 16" width="10" height="16" aria-hidden="true">
      <circle cx="2" cy="3" r="1.4" />
      <circle cx="8" cy="3" r="1.4" />
      <circle cx="2" cy="8" r="1.4" />
      <circle cx="8" cy="8" r="1.4" />
      <circle cx="2" cy="13" r="1.4" />
      <circle cx="8" cy="13" r="1.4" />
    </svg>
  );
}

/**
 * One entry of the queue, dense like a music app's track row: checkbox, drag handle, position (type
 * a new one), box art, title and year, runtime, availability, predicted rating, and quick actions
 * shown on hover or focus (never disabled under focus: "Move to top" pressed stays focused at #1).
 */
export const QueueRow = memo(function QueueRow({
  item,
  total,
  selected,
  predicted,
  ghost,
  lifted,
  pending,
  handleRef,
  handleProps,
  onRowClick,
  onToggle,
  onOpen,
  onMoveTo,
  onRemove,
}: QueueRowProps) {
  const name = `“${item.title}”`;
  const position = item.position;
  return (
    // A pointer shortcut for selecting (Shift/Ctrl ranges): the row's checkbox is its keyboard control.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      className={['queue-row', selected ? 'selected' : '', ghost ? 'ghost' : ''].join(' ').trim()}
      data-ref={item.ref}
      onClick={onRowClick ? (e) => onRowClick(item, e) : undefined}
    >
      <input
        type="checkbox"
        className="queue-check"
        aria-label={`Select ${name}`}
        checked={selected}
        onChange={() => onToggle?.(item)}
        onClick={(e) => e.stopPropagation()}
      />
      {handleProps ? (
        <button
          type="button"
          ref={handleRef}
          className="queue-handle"
          {...handleProps}
          aria-label={`Reorder ${name}`}
          onClick={(e) => e.stopPropagation()}
        >
          <Grip />
        </button>
      ) : (
        <span className="queue-handle placeholder" aria-hidden="true">
          {lifted && <Grip />}
        </span>
      )}
      {position !== null && onMoveTo ? (
        <PositionField name={item.title} position={position} total={total} onMove={(p) => onMoveTo(item, p)} />
      ) : (
        <span className="queue-position">{position ?? ''}</span>
      )}
      <QueueArt item={item} />
      <div className="queue-name">
        <button
          type="button"
          className="queue-title"
          title={item.title}
          onClick={(e) => (e.stopPropagation(), onOpen?.(item))}
        >
          {item.title}
        </button>
        {item.year !== null && <span className="queue-year">{item.year}</span>}
        {pending && <span className="queue-pending">Pending</span>}
      </div>
      <span className="queue-runtime">{formatRuntime(item.runtimeSeconds)}</span>
      <AvailabilityBadge availability={item.availability} />
      <PredictedStars value={predicted} />
      <div className="queue-actions">
        {position !== null && onMoveTo && (
          <>
            <button
              type="button"
              className="icon-button"
              aria-label={`Move ${name} to top`}
              title="Move to top"
              aria-disabled={position === 1}
              onClick={(e) => (e.stopPropagation(), position !== 1 && onMoveTo(item, 1))}
            >
              ⤒
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={`Move ${name} to bottom`}
              title="Move to bottom"
              aria-disabled={position === total}
              onClick={(e) => (e.stopPropagation(), position !== total && onMoveTo(item, total))}
            >
              ⤓
            </button>
          </>
        )}
        {onRemove && (
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove ${name}`}
            title="Remove"
            onClick={(e) => (e.stopPropagation(), onRemove(item))}
          >
            ✕
          </button>
        )}
      </div>
    </div>
  );
});
