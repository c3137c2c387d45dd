export function RecommendationsScreen() {
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">Recommendations</h1>
    </section>
  );
}
