export function HistoryScreen() {
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">History</h1>
    </section>
  );
}
