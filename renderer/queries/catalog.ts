import { infiniteQueryOptions, keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Page, TitleDetail, TitleSummary } from '../../shared/models.ts';
import { call } from './call.ts';

/** What Browse shows: one genre, optionally only movies or series, optionally only what plays now. */
export interface BrowseFilter {
  genre: string;
  type?: 'movie' | 'series';
  availableNow?: boolean;
}

/** Titles per request of a paged list (search, browse, people) unless Settings says otherwise. */
export const PAGE_SIZE = 24;
/** The service's limit on a search term; longer terms are refused before any request. */
export const MAX_TERM_LENGTH = 500;

/** Keys of the catalog: titles, people, searches, genres. */
export const catalogKeys = {
  all: ['catalog'] as const,
  title: (ref: string) => [...catalogKeys.all, 'title', ref] as const,
  /** A title's similars with box art, by the title's `similarsRef`. */
  similars: (similarsRef: string) => [...catalogKeys.all, 'similars', similarsRef] as const,
  person: (ref: string) => [...catalogKeys.all, 'person', ref] as const,
  genres: () => [...catalogKeys.all, 'genres'] as const,
  lists: () => [...catalogKeys.all, 'list'] as const,
  search: (term: string, pageSize = PAGE_SIZE) => [...catalogKeys.lists(), 'search', term, pageSize] as const,
  browse: (filter: BrowseFilter, pageSize = PAGE_SIZE) => [...catalogKeys.lists(), 'browse', filter, pageSize] as const,
  people: (term: string, pageSize = PAGE_SIZE) => [...catalogKeys.all, 'people', term, pageSize] as const,
  autocomplete: (term: string) => [...catalogKeys.all, 'autocomplete', term] as const,
};

/** The next page's start index, or undefined when every item has been fetched. */
const searchable = (term: string) => term.length > 0 && term.length <= MAX_TERM_LENGTH;

/** A paged list by start index; the previous key's pages stay on screen while the next key loads. */
function pagedQuery<K extends readonly unknown[], T>(
  queryKey: K,
  fetchPage: (start: number) => Promise<Page<T>>,
  enabled = true,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 0,
    getNextPageParam: nextStart<T>,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function nextStart<T>(last: Page<T>): number | undefined {
  const next = last.start + last.items.length;
  return last.items.length > 0 && next < last.total ? next : undefined;
}

/** A search term as the service takes it: trimmed, inner runs of space collapsed. */
export function normaliseTerm(term: string): string {
  return term.trim().replace(/\s+/g, ' ');
}

export const catalogQueries = {
  /**
   * One request with every expansion (the core asks for all of them). Always revalidated on a
   * revisit (staleTime 0): the cached title shows at once while the core's ETag cache asks the
   * service, which answers 304 when nothing changed. A summary from a list seeds the first view.
   */
  title: (ref: string, client?: QueryClient) =>
    queryOptions({
      queryKey: catalogKeys.title(ref),
      queryFn: () => call('catalog.title', { ref }),
      staleTime: 0,
      placeholderData: () => (client ? seedFromLists(client, ref) : undefined),
    }),
  /**
   * A title's similars with box art, its own request: `enabled` once the row is in view (the
   * title's request already named them). Revalidated like the title (a 304 when unchanged).
   */
  similars: (similarsRef: string, enabled: boolean) =>
    queryOptions({
      queryKey: catalogKeys.similars(similarsRef),
      queryFn: () => call('catalog.similars', { ref: similarsRef }),
      staleTime: 0,
      enabled,
    }),
  person: (ref: string) =>
    queryOptions({ queryKey: catalogKeys.person(ref), queryFn: () => call('catalog.person', { ref }), staleTime: 0 }),
  genres: () =>
    queryOptions({
      queryKey: catalogKeys.genres(),
      queryFn: () => call('catalog.categories', { scheme: 'genres' }),
      staleTime: Infinity,
    }),
  /** Titles matching `term`, `pageSize` at a time; the previous term's results stay while the next loads. */
  search: (term: string, pageSize = PAGE_SIZE) =>
    pagedQuery(
      catalogKeys.search(term, pageSize),
      (start) => call('catalog.search', { term, start, max: pageSize }),
      searchable(term),
    ),
  /** People whose name matches `term` ("Kubrick" finds Stanley Kubrick). */
  people: (term: string, pageSize = PAGE_SIZE) =>
    pagedQuery(
      catalogKeys.people(term, pageSize),
      (start) => call('catalog.people', { term, start, max: pageSize }),
      searchable(term),
    ),
  /** A genre's titles, `pageSize` at a time (infinite scroll by start index). */
  browse: (filter: BrowseFilter, pageSize = PAGE_SIZE) =>
    pagedQuery(catalogKeys.browse(filter, pageSize), (start) =>
      call('catalog.browse', { ...filter, start, max: pageSize }),
    ),
  /** Suggestions for what is typed so far (short titles); cached per prefix. */
  autocomplete: (term: string) =>
    queryOptions({
      queryKey: catalogKeys.autocomplete(term),
      queryFn: () => call('catalog.autocomplete', { term }),
      staleTime: 5 * 60_000,
      placeholderData: keepPreviousData,
      enabled: term.length > 0 && term.length <= 200,
    }),
};

/** Every title of every page of a paged list's data. */
export function titlesOf(data: { pages: Page<TitleSummary>[] } | undefined): TitleSummary[] {
  return data?.pages.flatMap((p) => p.items) ?? [];
}

/**
 * A title's summary from any list already in the cache (search, browse), as a detail with its
 * expansions empty: enough for the panel's header while the one expanded request runs.
 */
function seedFromLists(client: QueryClient, ref: string): TitleDetail | undefined {
  for (const [, data] of client.getQueriesData<{ pages: Page<TitleSummary>[] }>({ queryKey: catalogKeys.lists() })) {
    const summary = titlesOf(data).find((t) => t.ref === ref);
    if (summary) return emptyDetail(summary);
  }
  return undefined;
}

function emptyDetail(summary: TitleSummary): TitleDetail {
  return {
    ...summary,
    synopsis: '',
    availability: [],
    screenFormats: [],
    languages: [],
    cast: [],
    directors: [],
    similars: [],
    similarsRef: null,
    seasons: [],
    episodes: [],
    discs: [],
    series: null,
    season: null,
  };
}
