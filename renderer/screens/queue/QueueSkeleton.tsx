/** The queue's shape while it loads: grey rows, never a spinner. */
export function QueueSkeleton() {
  return (
    <div className="queue-skeleton" aria-busy="true" aria-label="Loading the queue">
      {Array.from({ length: 10 }, (_, i) => (
        <div key={i} className="queue-skeleton-row">
          <span className="skeleton art" />
          <span className="skeleton line" style={{ width: `${40 + ((i * 37) % 35)}%` }} />
        </div>
      ))}
    </div>
  );
}
