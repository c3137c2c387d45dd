import type { ImportProgress } from '../../../shared/import-export.ts';
import { ProgressBar } from '../../components/ProgressBar.tsx';

const WORDS: Record<ImportProgress['phase'], (p: ImportProgress) => string> = {
  matching: (p) => `Matching titles to the catalog: ${p.done} of ${p.total}`,
  saving: (p) => `Adding titles still to come to Saved: ${p.done} of ${p.total}`,
  rating: (p) => `Setting your ratings: ${p.done} of ${p.total}`,
  undoing: (p) => `Undoing the import: ${p.done} of ${p.total} steps`,
};

/** A step of an import under way, how far it got, and Cancel (stops after the current step). */
export function ImportProgressView({
  progress,
  fallback,
  onCancel,
}: {
  progress: ImportProgress | null;
  fallback: string;
  onCancel?: () => void;
}) {
  const words = progress && !progress.finished ? WORDS[progress.phase](progress) : fallback;
  const total = progress && !progress.finished ? progress.total : 0;
  return (
    <div className="queue-progress import-progress">
      <span id="import-progress-label">{words}</span>
      <ProgressBar labelId="import-progress-label" done={progress?.done ?? 0} total={total} />
      {onCancel && (
        <button type="button" className="button subtle small" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
