import { queryOptions } from '@tanstack/react-query';
import { call } from './call.ts';

/** Keys of the catalog: titles, people, searches, genres. */
export const catalogKeys = {
  all: ['catalog'] as const,
  title: (ref: string) => [...catalogKeys.all, 'title', ref] as const,
  person: (ref: string) => [...catalogKeys.all, 'person', ref] as const,
  genres: () => [...catalogKeys.all, 'genres'] as const,
};

export const catalogQueries = {
  /** One request with every expansion (the core asks for all of them). */
  title: (ref: string) => queryOptions({ queryKey: catalogKeys.title(ref), queryFn: () => call('catalog.title', { ref }) }),
  person: (ref: string) => queryOptions({ queryKey: catalogKeys.person(ref), queryFn: () => call('catalog.person', { ref }) }),
  genres: () => queryOptions({ queryKey: catalogKeys.genres(), queryFn: () => call('catalog.categories', { scheme: 'genres' }), staleTime: Infinity }),
};
