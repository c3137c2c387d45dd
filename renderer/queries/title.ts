import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Queue, QueueKind, Rating, TitleState, UserRating } from '../../shared/models.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';

/** Keys of what belongs to the signed-in subscriber about one title: its queue states and ratings. */
export const titleKeys = {
  all: ['title'] as const,
  state: (ref: string) => [...titleKeys.all, 'state', ref] as const,
  /** Several titles' states in one request (a page of cards). */
  states: (refs: readonly string[]) => [...titleKeys.all, 'states', ...refs] as const,
  rating: (ref: string) => [...titleKeys.all, 'rating', ref] as const,
};

export const titleQueries = {
  /** The service's states of the title in each queue (Add, Play, In Queue, Saved, At Home). */
  state: (ref: string, signedIn: boolean) =>
    queryOptions({
      queryKey: titleKeys.state(ref),
      queryFn: async (): Promise<TitleState | null> => (await call('titles.states', { refs: [ref] }))[0] ?? null,
      enabled: signedIn,
      staleTime: 0,
    }),
  /** The states of up to 100 titles (a page of cards) in one request, by ref. */
  states: (refs: readonly string[]) =>
    queryOptions({
      queryKey: titleKeys.states(refs),
      queryFn: async (): Promise<Record<string, TitleState>> =>
        Object.fromEntries((await call('titles.states', { refs: [...refs] })).map((s) => [s.ref, s])),
      enabled: refs.length > 0,
      staleTime: 0,
    }),
  /** The subscriber's rating and the predicted one. */
  rating: (ref: string, signedIn: boolean) =>
    queryOptions({
      queryKey: titleKeys.rating(ref),
      queryFn: async (): Promise<Rating | null> => (await call('ratings.get', { refs: [ref] }))[0] ?? null,
      enabled: signedIn,
      staleTime: 0,
    }),
};

/** Where an add puts the title: the top of the queue or the end. */
export type AddPlacement = 'top' | 'bottom';

export interface AddVariables {
  placement: AddPlacement;
  format?: 'instant' | 'DVD' | 'Blu-ray';
}

/** The queue screen's edits use the same scope, so every edit of one queue reaches the service in order. */
const queueScope = (kind: QueueKind) => ({ id: `queue:${kind}` });

/** A queue the core answered goes into the cache like a `queue.changed` event would put it. */
function takeQueue(client: QueryClient, ref: string, queue: Queue): void {
  client.setQueryData(queueKeys.list(queue.kind, queue.view), queue);
  void client.invalidateQueries({ queryKey: titleKeys.state(ref) });
}

/** Adds the title to one queue, at the top or the end. */
export function useAddToQueue(ref: string, kind: QueueKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ placement, format }: AddVariables) =>
      call('queue.add', { kind, ref, ...(placement === 'top' ? { position: 1 } : {}), ...(format ? { format } : {}) }),
    scope: queueScope(kind),
    onSuccess: (queue) => takeQueue(client, ref, queue),
  });
}

export function useRemoveFromQueue(ref: string, kind: QueueKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('queue.remove', { kind, ref }),
    scope: queueScope(kind),
    onSuccess: (queue) => takeQueue(client, ref, queue),
  });
}

/** Sets (1–5, not interested) or clears (null) the subscriber's rating; shown at once, rolled back on failure. */
export function useRate(ref: string) {
  const client = useQueryClient();
  const key = titleKeys.rating(ref);
  return useMutation({
    mutationFn: (rating: UserRating | null) => call('ratings.set', { ref, rating }),
    onMutate: async (rating) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Rating | null>(key);
      if (before) {
        const shown: Rating = { ...before, userRating: rating };
        client.setQueryData(key, shown);
      }
      return { before };
    },
    onError: (_error, _rating, context) => {
      if (context?.before !== undefined) client.setQueryData(key, context.before);
    },
    onSuccess: (rating) => client.setQueryData(key, rating),
  });
}
