import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { AppError, QueueItem, QueueKind } from '../../../shared/models.ts';
import { useStillSameAccount } from '../../queries/auth.ts';
import { appErrorOf } from '../../queries/call.ts';
import { useQueueEditor, type QueueEdit } from '../../queries/queue-edits.ts';
import { markPending } from '../../queries/queue-pending.ts';
import { moveToEdge, withoutRefs } from '../../../shared/pure/queue-order.ts';
import { sortOrder, SORT_LABELS, type Predictions, type SortKey } from '../../queries/queue-sort.ts';
import { quoted } from '../../components/queue/words.ts';
import { countOf } from '../../words.ts';

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
  const client = useQueryClient();
  const stillSameAccount = useStillSameAccount();
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
    if (queue && stillSameAccount()) markPending(client, kind, queue, touched);
  }

  const moveTo = (item: QueueItem, position: number) =>
    void run({ type: 'move', ref: item.ref, position, label: `Moved ${quoted(item.title)} to position ${position}` }, [
      item.ref,
    ]);

  /** One or more places up (negative) or down from where the edits made so far left the title; its new position, or null. */
  const moveBy = (item: QueueItem, delta: number): number | null => {
    const order = editor.content().order;
    const from = order.indexOf(item.ref);
    const to = Math.max(0, Math.min(order.length - 1, from + delta));
    if (from < 0 || to === from) return null;
    moveTo(item, to + 1);
    return to + 1;
  };

  const remove = (item: QueueItem) =>
    void run({ type: 'remove', ref: item.ref, label: `Removed ${quoted(item.title)}` }, [item.ref]);

  /** A saved title whose window opened, into the end of the order. */
  const moveIn = (item: QueueItem, format: string) =>
    void run({ type: 'moveIn', item, format, label: `Moved ${quoted(item.title)} into the queue` }, [item.ref]);

  const moveSelection = (chosen: ReadonlySet<string>, edge: 'top' | 'bottom') =>
    void run(
      {
        type: 'replace',
        refs: moveToEdge(order, chosen, edge),
        label: `Moved ${countOf(chosen.size, 'title')} to the ${edge}`,
      },
      [...chosen],
    );

  const removeSelection = (chosen: ReadonlySet<string>) =>
    void run({ type: 'replace', refs: withoutRefs(order, chosen), label: `Removed ${countOf(chosen.size, 'title')}` }, [
      ...chosen,
    ]);

  const sort = (key: SortKey, chosen?: ReadonlySet<string>) => {
    const refs = sortOrder(available, key, predictions, chosen);
    const what = chosen?.size ? countOf(chosen.size, 'title') : 'the queue';
    const how =
      key === 'shuffle'
        ? `Shuffled ${what}`
        : `Sorted ${what} by ${SORT_LABELS[key].replace(/ \(.*\)$/, '').toLowerCase()}`;
    void run({ type: 'replace', refs, label: how }, chosen?.size ? [...chosen] : order);
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

  return {
    moveTo,
    moveBy,
    remove,
    moveIn,
    moveSelection,
    removeSelection,
    sort,
    undo,
    redo,
    toast,
    closeToast,
    error,
    clearError: () => setError(null),
  };
}

export type QueueActions = ReturnType<typeof useQueueActions>;
