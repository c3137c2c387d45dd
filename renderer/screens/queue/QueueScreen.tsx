/** Placeholder from the frame (H2); H6 replaces this file. */
export function QueueScreen({ kind }: { kind: 'instant' | 'disc' }) {
  const name = kind === 'instant' ? 'Instant queue' : 'Disc queue';
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">{name}</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
