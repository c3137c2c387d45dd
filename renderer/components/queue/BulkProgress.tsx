import { ProgressBar } from '../ProgressBar.tsx';
import type { QueueProgress } from '../../../shared/models.ts';

/** A bulk change sent as a sequence of moves: how far it got, and Cancel (stops after the current step). */
export function BulkProgress({ progress, onCancel }: { progress: QueueProgress; onCancel: () => void }) {
  return (
    <div className="queue-progress">
      <span className="queue-progress-words" id="queue-progress-label">
        Reordering the queue: {progress.done} of {progress.total} changes sent
      </span>
      <ProgressBar labelId="queue-progress-label" done={progress.done} total={progress.total} />
      {progress.method === 'moves' && (
        <button type="button" className="button subtle small" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
