import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';

/** What a TitleGrid needs to load the next page of an infinite query (one request at a time). */
export function useMore(query: Pick<UseInfiniteQueryResult, 'fetchNextPage' | 'hasNextPage' | 'isFetchingNextPage'>) {
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, isFetchingNextPage]);
  return { hasMore: !!hasNextPage, loadingMore: isFetchingNextPage, loadMore };
}
