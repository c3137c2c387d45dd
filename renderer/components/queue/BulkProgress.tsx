import type { QueueProgress } from '../../../shared/models.ts';

/** A bulk change sent as a sequence of moves: how far it got, and Cancel (stops after the current step). */
export function BulkProgress({ progress, onCancel }: { progress: QueueProgress; onCancel: () => void }) {
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <div className="queue-progress">
      <span className="queue-progress-words" id="queue-progress-label">
        Reordering the queue: {progress.done} of {progress.total} changes sent
      </span>
      <div
        className="progress-track"
        role="progressbar"
        aria-labelledby="queue-progress-label"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      {progress.method === 'moves' && (
        <button type="button" className="button subtle small" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
