import { useCallback } from 'react';
import type { HistoryState } from '../../queries/queue-history.ts';
import { landFocus, queueListElement, titleOf, undoneTitle } from '../../components/queue/land-focus.ts';
import type { QueueActions } from './useQueueActions.ts';
import type { Selection } from './useSelection.ts';

/**
 * The queue's actions whose control goes away once done (the selection toolbar's Remove and Clear,
 * the toast's Undo and its closing): each hands focus to a sensible place, never the page body.
 */
export function useFocusAfterEdits(actions: QueueActions, history: HistoryState, selection: Selection) {
  /** Undo from the toast: its button goes, so focus goes to the title the undo brings back or moves. */
  function undoFromToast() {
    const control = document.activeElement;
    const entry = history.undo.at(-1);
    const ref = entry ? undoneTitle(entry) : null;
    void actions.undo();
    landFocus(control, () => (ref ? titleOf(ref) : null) ?? queueListElement());
  }

  /** The toast closing (dismissed, or its time up) with focus inside hands focus to the list. */
  const { closeToast } = actions;
  const closeToastKeepingFocus = useCallback(() => {
    const control = document.activeElement;
    const inToast = control?.closest('.queue-toast') !== null && control !== null;
    closeToast();
    if (inToast) landFocus(control, queueListElement);
  }, [closeToast]);

  function removeSelection() {
    const control = document.activeElement;
    actions.removeSelection(selection.selected);
    selection.clear();
    landFocus(control, queueListElement);
  }

  function clearSelection() {
    const control = document.activeElement;
    selection.clear();
    landFocus(control, queueListElement);
  }

  return { undoFromToast, closeToastKeepingFocus, removeSelection, clearSelection };
}
