import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Rating } from '../../shared/models.ts';
import { call } from './call.ts';
import type { Predictions } from './queue-sort.ts';

/**
 * Predicted ratings of the titles in a queue (ratings.get takes 100 refs a call). Keyed by the set
 * of titles, not their order, so a reorder never refetches them.
 */
const CHUNK = 100;

export const predictionKeys = {
  all: ['ratings', 'predicted'] as const,
  titles: (sortedRefs: readonly string[]) => [...predictionKeys.all, sortedRefs.join(' ')] as const,
};

async function fetchPredictions(refs: readonly string[]): Promise<Map<string, number | null>> {
  const chunks: string[][] = [];
  for (let i = 0; i < refs.length; i += CHUNK) chunks.push(refs.slice(i, i + CHUNK));
  const answers: Rating[][] = await Promise.all(chunks.map((chunk) => call('ratings.get', { refs: chunk })));
  return new Map(answers.flat().map((r) => [r.title.ref, r.predicted]));
}

export const predictionQueries = {
  titles: (refs: readonly string[]) => {
    const sorted = [...refs].sort();
    return queryOptions({
      queryKey: predictionKeys.titles(sorted),
      queryFn: () => fetchPredictions(sorted),
      enabled: sorted.length > 0,
      staleTime: 5 * 60_000,
      placeholderData: keepPreviousData,
    });
  },
};

const NONE: Predictions = new Map();

/** The predicted rating of each title in `refs` (empty until they load; kept while the set changes). */
export function usePredictions(refs: readonly string[]): Predictions {
  const options = useMemo(() => predictionQueries.titles(refs), [refs]);
  return useQuery(options).data ?? NONE;
}
