import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Page, Rating, UserRating } from '../../shared/models.ts';
import { call } from './call.ts';

/** The signed-in subscriber's own lists: ratings, recommendations, rental history. */
export type HistoryView = 'all' | 'shipped' | 'returned' | 'watched';

export const accountKeys = {
  all: ['account'] as const,
  ratings: () => [...accountKeys.all, 'ratings'] as const,
  recommendations: () => [...accountKeys.all, 'recommendations'] as const,
  history: (view: HistoryView) => [...accountKeys.all, 'history', view] as const,
  user: () => [...accountKeys.all, 'user'] as const,
};

const PAGE = 48;
/** Ratings change from the title panel too: a revisit asks again (a 304 from the core's ETag cache when nothing changed). */
const ASK_ON_REVISIT = 0;

/** The next start index of a paged list, or undefined at its end. */
function nextStart<T>(last: Page<T>): number | undefined {
  const next = last.start + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
}

export const accountQueries = {
  /** The subscriber: name, whether they can stream, preferred disc formats. Changes only on the service's side, rarely. */
  user: () =>
    queryOptions({ queryKey: accountKeys.user(), queryFn: () => call('user.current', {}), staleTime: 10 * 60_000 }),
  /** The titles the subscriber rated, as the service lists them. */
  ratings: () =>
    infiniteQueryOptions({
      queryKey: accountKeys.ratings(),
      queryFn: ({ pageParam }) => call('ratings.list', { start: pageParam, max: 100 }),
      initialPageParam: 0,
      getNextPageParam: nextStart,
      staleTime: ASK_ON_REVISIT,
    }),
  recommendations: () =>
    infiniteQueryOptions({
      queryKey: accountKeys.recommendations(),
      queryFn: ({ pageParam }) => call('recommendations.list', { start: pageParam, max: PAGE }),
      initialPageParam: 0,
      getNextPageParam: nextStart,
      staleTime: ASK_ON_REVISIT,
    }),
  history: (view: HistoryView) =>
    infiniteQueryOptions({
      queryKey: accountKeys.history(view),
      queryFn: ({ pageParam }) => call('history.list', { view, start: pageParam, max: PAGE }),
      initialPageParam: 0,
      getNextPageParam: nextStart,
      staleTime: ASK_ON_REVISIT,
    }),
};

type RatedPages = InfiniteData<Page<Rating>, number>;

/** A new rating in the rated list, in place (a cleared one stays until the list is read again, so it can be re-rated). */
function putRating(client: QueryClient, rating: Rating): void {
  client.setQueryData<RatedPages>(
    accountKeys.ratings(),
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.map((r) => (r.title.ref === rating.title.ref ? rating : r)),
        })),
      },
  );
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
      const before = client.getQueryData<RatedPages>(accountKeys.ratings());
      const shown = before?.pages.flatMap((p) => p.items).find((r) => r.title.ref === ref);
      if (shown) putRating(client, { ...shown, userRating: rating });
      return { before };
    },
    onError: (_error, _vars, context) => client.setQueryData(accountKeys.ratings(), context?.before),
    onSuccess: (rating, { rating: asked }) => putRating(client, { ...rating, userRating: asked }),
    onSettled: (_data, _error, { ref }) => {
      void client.invalidateQueries({ queryKey: accountKeys.recommendations() });
      if (!client.getQueryData(accountKeys.ratings()))
        void client.invalidateQueries({ queryKey: accountKeys.ratings() });
      void client.invalidateQueries({ queryKey: ['title', 'rating', ref] });
    },
  });
}
