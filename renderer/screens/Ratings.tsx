export function RatingsScreen() {
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">Ratings</h1>
    </section>
  );
}
