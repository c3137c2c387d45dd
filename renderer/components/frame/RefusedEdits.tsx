import { useEffect, useRef } from 'react';
import type { RefusedEdit } from '../../../shared/models.ts';
import { appErrorOf } from '../../queries/call.ts';
import { refusedWords, useRefusedAction, useRefusedEdits } from '../../queries/queue-refused.ts';

/**
 * The notice a person opens from the status line: each queue edit the service refused, in words,
 * with Retry and Discard. A native modal <dialog>: the platform gives it focus containment, Escape
 * and the dialog role, which no library in the project offers.
 */
export function RefusedEditsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const edits = useRefusedEdits();
  const action = useRefusedAction();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // After an edit leaves the list, focus goes to the next one's Retry, or to Close when none is
  // left. Moved in an effect once the answer is on screen: while the action runs every button is
  // disabled, and a disabled button cannot take focus.
  const focusNext = useRef(false);
  useEffect(() => {
    if (!focusNext.current || action.isPending) return;
    focusNext.current = false;
    const next = dialog.current?.querySelector<HTMLButtonElement>('[data-refused-first]');
    (next ?? closeButton.current)?.focus();
  }, [action.isPending, edits]);
  const act = (edit: RefusedEdit, kind: 'retry' | 'discard') => {
    focusNext.current = true;
    action.mutate({ edit, action: kind });
  };

  return (
    <dialog ref={dialog} className="refused-dialog" aria-labelledby="refused-title" onClose={onClose}>
      <h2 id="refused-title">Edits the service couldn’t make</h2>
      {edits.length === 0 ? (
        <p className="refused-empty">Nothing left to review: every edit was retried or discarded.</p>
      ) : (
        <>
          <p className="refused-intro">
            These changes to your queues were kept. Retry one when the reason is gone, or discard it.
          </p>
          <ul className="refused-list" aria-label="Refused edits">
            {edits.map((edit, index) => (
              <li key={edit.id} className="refused-item">
                <span className="refused-words">{refusedWords(edit)}</span>
                <span className="refused-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Retry: ${edit.edit}`}
                    data-refused-first={index === 0 ? '' : undefined}
                    disabled={action.isPending}
                    onClick={() => act(edit, 'retry')}
                  >
                    Retry
                  </button>
                  <button
                    type="button"
                    className="button small subtle"
                    aria-label={`Discard: ${edit.edit}`}
                    disabled={action.isPending}
                    onClick={() => act(edit, 'discard')}
                  >
                    Discard
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {action.isError && (
        <p className="refused-error" role="alert">
          {appErrorOf(action.error).message}
        </p>
      )}
      <div className="refused-footer">
        <button ref={closeButton} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

/** The status line's words for the refused edits: the one edit and why, or how many. */
export function refusedSummary(edits: RefusedEdit[]): string {
  if (edits.length === 1) return refusedWords(edits[0]!);
  return `${edits.length} edits couldn’t be made.`;
}
