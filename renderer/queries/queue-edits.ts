import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Queue, QueueKind } from '../../shared/models.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';
import { queueHistory, type HistoryEntry } from './queue-history.ts';
import { availableOrder, moveRef, rebaseOrder, withOrder } from '../../shared/pure/queue-order.ts';

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
  | { type: 'replace'; refs: string[]; label: string };

interface EditVariables {
  edit: QueueEdit;
  /** false for undo and redo themselves (they move entries between the stacks instead). */
  record: boolean;
}

export const queueEditKey = (kind: QueueKind) => [...queueKeys.kind(kind), 'edit'] as const;

function send(kind: QueueKind, edit: QueueEdit): Promise<Queue> {
  switch (edit.type) {
    case 'move':
      return call('queue.move', { kind, ref: edit.ref, position: edit.position });
    case 'remove':
      return call('queue.remove', { kind, ref: edit.ref });
    case 'replace':
      return call('queue.replace', { kind, refs: edit.refs });
  }
}

/** The available order after `edit`, from the order before it. */
export function orderAfter(before: readonly string[], edit: QueueEdit): string[] {
  switch (edit.type) {
    case 'move':
      return moveRef(before, edit.ref, edit.position);
    case 'remove':
      return before.filter((r) => r !== edit.ref);
    case 'replace':
      return [...edit.refs];
  }
}

async function showAtOnce(client: QueryClient, kind: QueueKind, { edit, record }: EditVariables): Promise<void> {
  await client.cancelQueries({ queryKey: queueKeys.kind(kind) });
  const shown = client.getQueryData<Queue>(queueKeys.list(kind));
  if (!shown) return;
  const before = availableOrder(shown.items);
  const after = orderAfter(before, edit);
  client.setQueryData<Queue>(queueKeys.list(kind), withOrder(shown, after));
  if (record) queueHistory.record(kind, { label: edit.label, before, after });
}

export interface QueueEditor {
  edit(edit: QueueEdit): Promise<Queue>;
  undo(): Promise<HistoryEntry | undefined>;
  redo(): Promise<HistoryEntry | undefined>;
  /** A bulk change or edit still on its way to the service. */
  busy: boolean;
}

export function useQueueEditor(kind: QueueKind, onFailure?: (error: unknown, edit: QueueEdit) => void): QueueEditor {
  const client = useQueryClient();
  const mutationKey = queueEditKey(kind);
  const mutation = useMutation<Queue, unknown, EditVariables>({
    mutationKey,
    scope: { id: `queue:${kind}` },
    mutationFn: ({ edit }) => send(kind, edit),
    onMutate: (variables) => showAtOnce(client, kind, variables),
    onSuccess: (queue) => {
      // Only the last edit in flight sets the answer: an earlier one would hide the later ones.
      if (client.isMutating({ mutationKey }) === 1) client.setQueryData(queueKeys.list(kind, queue.view), queue);
    },
    onError: (error, { edit }) => {
      onFailure?.(error, edit);
      if (client.isMutating({ mutationKey }) === 1) void client.invalidateQueries({ queryKey: queueKeys.kind(kind) });
    },
  });
  const { mutateAsync, isPending } = mutation;

  const edit = useCallback((e: QueueEdit) => mutateAsync({ edit: e, record: true }), [mutateAsync]);

  /** Carries an entry's order onto the queue shown now, as one replace. */
  const restore = useCallback(
    async (target: string[], undone: string[], label: string) => {
      const current = client.getQueryData<Queue>(queueKeys.list(kind))?.items ?? [];
      const refs = rebaseOrder(target, undone, current);
      await mutateAsync({ edit: { type: 'replace', refs, label }, record: false });
    },
    [client, kind, mutateAsync],
  );

  const undo = useCallback(async () => {
    const entry = queueHistory.takeUndo(kind);
    if (entry) await restore(entry.before, entry.after, `Undid: ${entry.label}`);
    return entry;
  }, [kind, restore]);

  const redo = useCallback(async () => {
    const entry = queueHistory.takeRedo(kind);
    if (entry) await restore(entry.after, entry.before, `Redid: ${entry.label}`);
    return entry;
  }, [kind, restore]);

  return { edit, undo, redo, busy: isPending };
}
