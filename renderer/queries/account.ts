import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Page, Rating, UserRating } from '../../shared/models.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';

/** The signed-in subscriber's own lists: ratings, recommendations, rental history. */
export type HistoryView = 'all' | 'shipped' | 'returned' | 'watched';

export const accountKeys = {
  all: ['account'] as const,
  ratings: () => [...accountKeys.all, 'ratings'] as const,
  recommendations: () => [...accountKeys.all, 'recommendations'] as const,
  history: (view: HistoryView) => [...accountKeys.all, 'history', view] as const,
};

const PAGE = 48;
const RATINGS_BATCH = 100;

/** The next start index of a paged list, or undefined at its end. */
function nextStart<T>(last: Page<T>): number | undefined {
  const next = last.start + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
}

/**
 * The titles the subscriber rated. The app's API reads ratings by title, so this asks for the
 * ratings of every title the subscriber has met (rental history and both queues, newest first),
 * in batches of 100, and keeps those with a rating of their own.
 */
async function ratedTitles(): Promise<Rating[]> {
  const [history, instant, disc] = await Promise.all([
    call('history.list', { max: 500 }),
    call('queue.list', { kind: 'instant', max: 500 }).catch(() => null),
    call('queue.list', { kind: 'disc', max: 500 }).catch(() => null),
  ]);
  const refs = [...new Set([...history.items, ...(instant?.items ?? []), ...(disc?.items ?? [])].map((t) => t.ref))];
  const batches: string[][] = [];
  for (let i = 0; i < refs.length; i += RATINGS_BATCH) batches.push(refs.slice(i, i + RATINGS_BATCH));
  const ratings = (await Promise.all(batches.map((b) => call('ratings.get', { refs: b })))).flat();
  return ratings.filter((r) => r.userRating !== null);
}

export const accountQueries = {
  ratings: () => queryOptions({ queryKey: accountKeys.ratings(), queryFn: ratedTitles }),
  recommendations: () =>
    infiniteQueryOptions({
      queryKey: accountKeys.recommendations(),
      queryFn: ({ pageParam }) => call('recommendations.list', { start: pageParam, max: PAGE }),
      initialPageParam: 0,
      getNextPageParam: nextStart,
    }),
  history: (view: HistoryView) =>
    infiniteQueryOptions({
      queryKey: accountKeys.history(view),
      queryFn: ({ pageParam }) => call('history.list', { view, start: pageParam, max: PAGE }),
      initialPageParam: 0,
      getNextPageParam: nextStart,
    }),
};

/** A new rating in the rated list (kept in place; a cleared one stays until the list is read again, so it can be re-rated). */
function putRating(client: QueryClient, rating: Rating): void {
  client.setQueryData<Rating[]>(accountKeys.ratings(), (list) => list?.map((r) => (r.title.ref === rating.title.ref ? rating : r)));
}

/**
 * Rates a title (1–5, not interested) or clears it (null). Shown at once; recommendations and the
 * title's own rating are read again after, since the service's predictions follow ratings.
 */
export function useRateTitle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, rating }: { ref: string; rating: UserRating | null }) => call('ratings.set', { ref, rating }),
    onMutate: ({ ref, rating }) => {
      const before = client.getQueryData<Rating[]>(accountKeys.ratings());
      const shown = before?.find((r) => r.title.ref === ref);
      if (shown) putRating(client, { ...shown, userRating: rating });
      return { before };
    },
    onError: (_error, _vars, context) => client.setQueryData(accountKeys.ratings(), context?.before),
    onSuccess: (rating, { rating: asked }) => putRating(client, { ...rating, userRating: asked }),
    onSettled: (_data, _error, { ref }) => {
      void client.invalidateQueries({ queryKey: accountKeys.recommendations() });
      void client.invalidateQueries({ queryKey: ['title', 'rating', ref] });
    },
  });
}

/** One click: the title at the end of the instant queue (the core sends queue.changed too). */
export function useAddToInstantQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ref: string) => call('queue.add', { kind: 'instant', ref }),
    scope: { id: 'queue:instant' },
    onSuccess: (queue) => client.setQueryData(queueKeys.list(queue.kind, queue.view), queue),
  });
}
