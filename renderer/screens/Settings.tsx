export function SettingsScreen({ onDone }: { onDone?: () => void }) {
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">Settings</h1>
      {onDone && <button type="button" className="button" onClick={onDone}>Back to sign in</button>}
    </section>
  );
}
