/**
 * How far a long change got (a bulk reorder, an import step), named by the words beside it
 * (`labelId`). The fill is scaled, not resized: a transform animates on the compositor, so a bar
 * that moves with every one of 300 steps costs the page no layout or paint per frame.
 */
export function ProgressBar({ labelId, done, total }: { labelId: string; done: number; total: number }) {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div
      className="progress-track"
      role="progressbar"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={total || 1}
      aria-valuenow={total > 0 ? done : 0}
    >
      <div className="progress-fill" style={{ transform: `scaleX(${fraction})` }} />
    </div>
  );
}
