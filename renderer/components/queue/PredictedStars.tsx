/** A predicted rating as five small stars and the figure ("4.2"), named for screen readers. */
export function PredictedStars({ value }: { value: number | null | undefined }) {
  if (value === undefined) return <span className="queue-stars loading" aria-hidden="true" />;
  if (value === null) return <span className="queue-stars none">No prediction</span>;
  const percent = Math.max(0, Math.min(100, (value / 5) * 100));
  return (
    <span className="queue-stars" role="img" aria-label={`Predicted rating ${value.toFixed(1)} out of 5`}>
      <span className="stars-track" aria-hidden="true">
        ★★★★★
        <span className="stars-fill" style={{ width: `${percent}%` }}>
          ★★★★★
        </span>
      </span>
      <span className="stars-figure" aria-hidden="true">
        {value.toFixed(1)}
      </span>
    </span>
  );
}
