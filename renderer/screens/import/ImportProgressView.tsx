import type { ImportProgress } from '../../../shared/import-export.ts';

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
  const percent = total > 0 ? Math.round((progress!.done / total) * 100) : 0;
  return (
    <div className="queue-progress import-progress">
      <span id="import-progress-label">{words}</span>
      <div
        className="progress-track"
        role="progressbar"
        aria-labelledby="import-progress-label"
        aria-valuemin={0}
        aria-valuemax={total || 1}
        aria-valuenow={total ? progress!.done : 0}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      {onCancel && (
        <button type="button" className="button subtle small" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
