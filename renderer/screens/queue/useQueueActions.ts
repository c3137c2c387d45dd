import { useCallback, useState } from 'react';
import type { AppError, QueueItem, QueueKind } from '../../../shared/models.ts';
import { appErrorOf } from '../../queries/call.ts';
import { usePendingRefs } from '../../queries/status.ts';
import { useQueueEditor, type QueueEdit } from '../../queries/queue-edits.ts';
import { moveToEdge, withoutRefs } from '../../queries/queue-order.ts';
import { sortOrder, SORT_LABELS, type Predictions, type SortKey } from '../../queries/queue-sort.ts';
import { quoted, titlesCount } from '../../components/queue/words.ts';

export interface Toast {
  message: string;
  undoable: boolean;
}

/**
 * What the person can do to a queue, in words: each action is one edit (so one undo step) and
 * leaves a toast saying what it did. Failures other than "offline" (the core keeps those edits)
 * become an error shown above the list.
 */
export function useQueueActions(kind: QueueKind, available: readonly QueueItem[], predictions: Predictions) {
  const [toast, setToast] = useState<Toast | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const { pending, mark, settle: settled } = usePendingRefs(kind); // in the cache: the marks outlive this screen
  const onFailure = useCallback((e: unknown) => {
    const appError = appErrorOf(e);
    if (appError.kind !== 'offline' && appError.kind !== 'conflict') setError(appError); // conflicts arrive as queue.conflict
  }, []);
  const editor = useQueueEditor(kind, onFailure);
  const order = available.map((i) => i.ref);

  async function run(edit: QueueEdit, touched: readonly string[]) {
    setError(null);
    setToast({ message: edit.label, undoable: true });
    const queue = await editor.edit(edit).catch(() => undefined);
    if (queue?.pendingEdits) mark(touched);
  }

  const moveTo = (item: QueueItem, position: number) =>
    void run({ type: 'move', ref: item.ref, position, label: `Moved ${quoted(item.title)} to position ${position}` }, [item.ref]);

  const remove = (item: QueueItem) => void run({ type: 'remove', ref: item.ref, label: `Removed ${quoted(item.title)}` }, [item.ref]);

  const moveSelection = (chosen: ReadonlySet<string>, edge: 'top' | 'bottom') =>
    void run({ type: 'replace', refs: moveToEdge(order, chosen, edge), label: `Moved ${titlesCount(chosen.size)} to the ${edge}` }, [...chosen]);

  const removeSelection = (chosen: ReadonlySet<string>) =>
    void run({ type: 'replace', refs: withoutRefs(order, chosen), label: `Removed ${titlesCount(chosen.size)}` }, [...chosen]);

  const sort = (key: SortKey, chosen?: ReadonlySet<string>) => {
    const refs = sortOrder(available, key, predictions, chosen);
    const what = chosen?.size ? titlesCount(chosen.size) : 'the queue';
    void run({ type: 'replace', refs, label: `Sorted ${what} by ${SORT_LABELS[key].replace(/ \(.*\)$/, '').toLowerCase()}` }, chosen?.size ? [...chosen] : order);
  };

  async function undo() {
    const entry = await editor.undo().catch(() => undefined);
    if (entry) setToast({ message: `Undid: ${entry.label}`, undoable: false });
  }

  async function redo() {
    const entry = await editor.redo().catch(() => undefined);
    if (entry) setToast({ message: `Redid: ${entry.label}`, undoable: false });
  }

  const closeToast = useCallback(() => setToast(null), []);

  return { moveTo, remove, moveSelection, removeSelection, sort, undo, redo, toast, closeToast, error, clearError: () => setError(null), pending, settled };
}
