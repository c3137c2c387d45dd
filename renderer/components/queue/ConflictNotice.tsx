/**
 * A queue edit met another device's change: quiet words, not an alarm. Applied: the move landed on
 * the new order. Not applied: what could not be done; the list already shows the real queue.
 */
export function ConflictNotice({
  message,
  applied,
  onDismiss,
}: {
  message: string;
  applied: boolean;
  onDismiss: () => void;
}) {
  return (
    <div className={applied ? 'queue-notice' : 'queue-notice unapplied'} role="status">
      <p>
        {message}
        {!applied && ' The list shows your queue as it is now.'}
      </p>
      <button type="button" className="icon-button" aria-label="Dismiss the notice" onClick={onDismiss}>
        ✕
      </button>
    </div>
  );
}
