import { useEffect } from 'react';

const SHOWN_MS = 8000;

/** After each edit: what happened, and Undo (Ctrl/Cmd-Z does the same); it goes after a few seconds. */
export function UndoToast({
  message,
  onUndo,
  onClose,
}: {
  message: string;
  onUndo?: (() => void) | undefined;
  onClose: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onClose, SHOWN_MS);
    return () => clearTimeout(timer);
  }, [message, onClose]);
  return (
    <div className="queue-toast" role="status" aria-live="polite">
      <span>{message}</span>
      {onUndo && (
        <button type="button" className="button subtle small" onClick={onUndo}>
          Undo
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onClose}>
        ✕
      </button>
    </div>
  );
}
