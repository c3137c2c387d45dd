import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefusedEdit } from '../../shared/models.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';

/**
 * The queue edits the service refused when they were sent later (made offline): kept by the core
 * until the person retries or discards each. The list is asked for once and then written by the
 * core's 'queue.refused' event (events.ts) and by the answers of retry and discard.
 */
export const refusedKeys = {
  all: ['queue-refused'] as const,
  list: () => [...refusedKeys.all, 'list'] as const,
};

export const refusedQueries = {
  list: () => queryOptions({ queryKey: refusedKeys.list(), queryFn: () => call('queue.refused', {}) }),
};

/** The refused edits (none while they load or when the core cannot say). */
export function useRefusedEdits(): RefusedEdit[] {
  return useQuery(refusedQueries.list()).data ?? [];
}

/** Retry or discard one refused edit; the answer is the list left. */
export function useRefusedAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ edit, action }: { edit: RefusedEdit; action: 'retry' | 'discard' }) =>
      call(action === 'retry' ? 'queue.retryRefused' : 'queue.discardRefused', { id: edit.id }),
    onSuccess: (left, { edit }) => {
      client.setQueryData<RefusedEdit[]>(refusedKeys.list(), left);
      void client.invalidateQueries({ queryKey: queueKeys.kind(edit.kind) });
    },
  });
}

/** "Move “Alien” to position 3 couldn't be made: the title is no longer in your queue." */
export function refusedWords(edit: RefusedEdit): string {
  const reason = edit.reason.trim();
  return reason ? `${edit.edit} couldn’t be made: ${lowerFirst(reason)}` : `${edit.edit} couldn’t be made.`;
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
