import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { Queue, QueueItem, QueueKind } from '../../shared/models.ts';
import { useStillSameAccount } from './auth.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';
import { useQueueHistoryOwner, type HistoryEntry, type QueueHistory } from './queue-history.ts';
import { moveRef, rebaseOrder } from '../../shared/pure/queue-order.ts';
import { QUEUE_LIMIT } from '../../shared/protocol/queue.ts';
import { contentOf, placedOf, sameOrder, savedChanges, withContent, type QueueContent } from './queue-content.ts';

/**
 * Every edit of a queue, optimistic and in order: the list changes at once (cancel its queries,
 * snapshot, set), the write goes through the core (queue.move / queue.remove / queue.replace, which
 * rebase on 412 and keep edits offline), and all edits of one queue share one mutation scope so
 * they reach the service in the order they were made. The last edit to settle sets the queue the
 * service answered; a failure shows the real queue again. Each edit is one undo step.
 */
export type QueueEdit =
  | { type: 'move'; ref: string; position: number; label: string }
  | { type: 'remove'; ref: string; label: string }
  | { type: 'replace'; refs: string[]; label: string }
  /** A saved title now available, into the order's end: the service keeps a saved entry saved, so it is taken out and added again. */
  | { type: 'moveIn'; item: QueueItem; format: string; label: string }
  /** Undo and redo: the available order (null: as it is), saved titles brought back or taken out again. */
  | { type: 'restore'; refs: string[] | null; add: QueueItem[]; remove: QueueItem[]; label: string };

interface EditVariables {
  edit: QueueEdit;
  /** false for undo and redo themselves (they move entries between the stacks instead). */
  record: boolean;
  /** The edit's number among those made on this screen, so the last one shown is known. */
  seq: number;
}

function send(kind: QueueKind, edit: QueueEdit): Promise<Queue> {
  switch (edit.type) {
    case 'move':
      return call('queue.move', { kind, ref: edit.ref, position: edit.position });
    case 'remove':
      return call('queue.remove', { kind, ref: edit.ref });
    case 'replace':
      return call('queue.replace', { kind, refs: edit.refs });
    case 'restore':
      return sendRestore(kind, edit);
    case 'moveIn':
      return sendMoveIn(kind, edit);
  }
}

type AddFormat = 'instant' | 'DVD' | 'Blu-ray';
const ADD_FORMATS: readonly string[] = ['instant', 'DVD', 'Blu-ray'] satisfies AddFormat[];

/** The order first, then each saved title back (in its own format) or out; the last answer is the queue. */
async function sendRestore(kind: QueueKind, edit: Extract<QueueEdit, { type: 'restore' }>): Promise<Queue> {
  let queue: Queue | undefined;
  if (edit.refs) queue = await call('queue.replace', { kind, refs: edit.refs });
  for (const item of edit.add) {
    const format = ADD_FORMATS.includes(item.format) ? { format: item.format as AddFormat } : {};
    queue = await call('queue.add', { kind, ref: item.ref, ...format });
  }
  for (const item of edit.remove) queue = await call('queue.remove', { kind, ref: item.ref });
  return queue ?? call('queue.list', { kind, max: QUEUE_LIMIT });
}

/** Out of the saved part, then in again: the service places an added title by its window, open now. */
async function sendMoveIn(kind: QueueKind, edit: Extract<QueueEdit, { type: 'moveIn' }>): Promise<Queue> {
  await call('queue.remove', { kind, ref: edit.item.ref });
  const format = ADD_FORMATS.includes(edit.format) ? { format: edit.format as AddFormat } : {};
  return call('queue.add', { kind, ref: edit.item.ref, ...format });
}

/** The queue's content after `edit`, from the content before it. */
export function contentAfter(before: QueueContent, edit: QueueEdit): QueueContent {
  switch (edit.type) {
    case 'move':
      return { order: moveRef(before.order, edit.ref, edit.position), saved: before.saved };
    case 'remove':
      return {
        order: before.order.filter((r) => r !== edit.ref),
        saved: before.saved.filter((i) => i.ref !== edit.ref),
      };
    case 'replace':
      return { order: [...edit.refs], saved: before.saved };
    case 'moveIn':
      return {
        order: [...before.order.filter((r) => r !== edit.item.ref), edit.item.ref],
        saved: before.saved.filter((i) => i.ref !== edit.item.ref),
      };
    case 'restore': {
      const gone = new Set(edit.remove.map((i) => i.ref));
      return {
        order: edit.refs ? [...edit.refs] : before.order,
        saved: [...before.saved.filter((i) => !gone.has(i.ref)), ...edit.add],
      };
    }
  }
}

async function showAtOnce(
  client: QueryClient,
  history: QueueHistory,
  kind: QueueKind,
  { edit, record }: EditVariables,
): Promise<void> {
  await client.cancelQueries({ queryKey: queueKeys.kind(kind) });
  const shown = client.getQueryData<Queue>(queueKeys.list(kind));
  if (!shown) return;
  const before = contentOf(shown);
  const after = contentAfter(before, edit);
  client.setQueryData<Queue>(queueKeys.list(kind), withContent(shown, after));
  if (record) history.record(kind, { label: edit.label, before, after });
}

export interface QueueEditor {
  edit(edit: QueueEdit): Promise<Queue>;
  /**
   * The queue's content as every edit made so far leaves it, at once: the next edit (a key pressed
   * again before the list re-rendered) is computed from it, so no key is lost.
   */
  content(): QueueContent;
  undo(): Promise<HistoryEntry | undefined>;
  redo(): Promise<HistoryEntry | undefined>;
  /** A bulk change or edit still on its way to the service. */
  busy: boolean;
}

export function useQueueEditor(kind: QueueKind, onFailure?: (error: unknown, edit: QueueEdit) => void): QueueEditor {
  const client = useQueryClient();
  const history = useQueueHistoryOwner();
  const stillSameAccount = useStillSameAccount();
  const mutationKey = queueKeys.edit(kind);
  // The content after the last edit made, until its optimistic view is in the cache (onMutate may wait a tick).
  const issued = useRef<{ seq: number; content: QueueContent | null }>({ seq: 0, content: null });
  const mutation = useMutation<Queue, unknown, EditVariables>({
    mutationKey,
    scope: { id: `queue:${kind}` },
    mutationFn: ({ edit }) => send(kind, edit),
    onMutate: async (variables) => {
      await showAtOnce(client, history, kind, variables);
      if (issued.current.seq === variables.seq) issued.current = { seq: variables.seq, content: null };
    },
    onSuccess: (queue) => {
      // Only the last edit in flight sets the answer: an earlier one would hide the later ones.
      if (client.isMutating({ mutationKey }) === 1 && stillSameAccount())
        client.setQueryData(queueKeys.list(kind, queue.view), queue);
    },
    onError: (error, { edit }) => {
      onFailure?.(error, edit);
      if (client.isMutating({ mutationKey }) === 1) void client.invalidateQueries({ queryKey: queueKeys.kind(kind) });
    },
  });
  const { mutateAsync, isPending } = mutation;

  const content = useCallback(
    () => issued.current.content ?? contentOf(client.getQueryData<Queue>(queueKeys.list(kind))),
    [client, kind],
  );
  const issue = useCallback(
    (e: QueueEdit, record: boolean) => {
      const seq = issued.current.seq + 1;
      issued.current = { seq, content: contentAfter(content(), e) };
      return mutateAsync({ edit: e, record, seq });
    },
    [content, mutateAsync],
  );
  const edit = useCallback((e: QueueEdit) => issue(e, true), [issue]);

  /** Carries an entry's content onto the queue shown now, as one edit (nothing to send: none). */
  const restore = useCallback(
    async (target: QueueContent, undone: QueueContent, label: string) => {
      const current = content();
      const refs = rebaseOrder(target.order, undone.order, placedOf(current));
      // A saved title the undo takes out of the order (one moved in) is added back, not lost.
      const { add, remove } = savedChanges(target, undone, { order: refs, saved: current.saved });
      const reorder = !sameOrder(refs, current.order);
      if (!reorder && add.length === 0 && remove.length === 0) return;
      await issue({ type: 'restore', refs: reorder ? refs : null, add, remove, label }, false);
    },
    [content, issue],
  );

  const undo = useCallback(async () => {
    const entry = history.takeUndo(kind);
    if (entry) await restore(entry.before, entry.after, `Undid: ${entry.label}`);
    return entry;
  }, [history, kind, restore]);

  const redo = useCallback(async () => {
    const entry = history.takeRedo(kind);
    if (entry) await restore(entry.after, entry.before, `Redid: ${entry.label}`);
    return entry;
  }, [history, kind, restore]);

  return { edit, content, undo, redo, busy: isPending };
}
