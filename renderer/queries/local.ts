import { queryOptions } from '@tanstack/react-query';

/**
 * A state in the query cache that only the core's events and hand-overs write: never fetched,
 * never stale, kept while the app runs (status.ts, import.ts).
 */
export function localState<T>(queryKey: readonly unknown[], initial: T) {
  return queryOptions<T>({
    queryKey,
    queryFn: () => initial,
    initialData: initial,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
