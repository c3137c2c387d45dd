import type { Category, Page, Person, Ref, TitleDetail, TitleSummary, TitleType } from '../../../shared/models.ts';
import { ServiceError, type ServiceRequest, type Transport } from '../types.ts';
import {
  parseAutocomplete,
  parseCategories,
  parseFilmography,
  parsePeoplePage,
  parsePerson,
  parseTitle,
  parseTitlePage,
} from '../xml/index.ts';
import { readParsed } from './read-parsed.ts';

/**
 * The catalog: search, browse by genre, autocomplete, one title (one expanded request), a title's
 * similars with box art (asked for only when shown), people, categories.
 */

export type CategoryScheme =
  | 'genres'
  | 'mpaa_ratings'
  | 'tv_ratings'
  | 'title_formats'
  | 'queue_availability'
  | 'title_states';

export interface Paging {
  start?: number;
  max?: number;
  signal?: AbortSignal;
}

export interface TitleOptions {
  /** The title's type when the caller knows it (from a list): expands only what that type has. */
  type?: TitleType;
  signal?: AbortSignal;
}

/**
 * Expansions every title view asks for; `awards` needs v=1.5. `similars` names the similar titles
 * (links, no box art): their box art is `similars()`'s own request, made when the row is seen.
 */
const TITLE_EXPAND = [
  'synopsis',
  'cast',
  'directors',
  'formats',
  'screen formats',
  'languages and audio',
  'awards',
  'similars',
];
/** How many similars a title view shows, and how many titles of a person's filmography. */
export const SIMILARS_SHOWN = 25;
export const FILMOGRAPHY_SHOWN = 100;

export interface BrowseOptions extends Paging {
  /** A genre's term as /categories/genres lists it. */
  genre: string;
  type?: 'movie' | 'series';
  availableNow?: boolean;
}

/**
 * The `expand` list for a title of `type`: seasons only for a series, episodes for a series or
 * season, discs for what may have disc sets. Unknown type: all of them (the service expands only
 * what the title has).
 */
export function titleExpand(type: TitleType | undefined): string {
  const names = [...TITLE_EXPAND];
  if (type === undefined || type === 'series') names.push('seasons');
  if (type === undefined || type === 'series' || type === 'season') names.push('episodes');
  if (type === undefined || type === 'series' || type === 'season' || type === 'movie') names.push('discs');
  return names.join(',');
}

export function pagingQuery(p: Paging | undefined): Record<string, string> {
  const q: Record<string, string> = {};
  if (p?.start !== undefined) q.start_index = String(p.start);
  if (p?.max !== undefined) q.max_results = String(p.max);
  return q;
}

function signalOf(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}

export interface CatalogClient {
  /** GET /catalog/titles?term= (paged; the service caps max at 100). */
  search(term: string, paging?: Paging): Promise<Page<TitleSummary>>;
  /** GET /catalog/titles/autocomplete?term= (consumer key only) → short titles. */
  autocomplete(term: string, opts?: { signal?: AbortSignal }): Promise<string[]>;
  /** GET /catalog/titles?genre=…&title_type=…&available_now=true (the service's genre extension). */
  browse(options: BrowseOptions): Promise<Page<TitleSummary>>;
  /** GET /catalog/people?term= (paged). */
  people(term: string, paging?: Paging): Promise<Page<Ref>>;
  /** GET {ref}?v=1.5&expand=… — everything a title view shows, similars by name — in one request. */
  title(ref: string, opts?: TitleOptions): Promise<TitleDetail>;
  /**
   * GET {ref}?expand=formats: the title's name and availability windows, revalidated with its ETag
   * (a 304 when the catalog did not change); null when the catalog no longer has it (404).
   */
  titleAvailability(ref: string, opts?: { signal?: AbortSignal }): Promise<TitleDetail | null>;
  /** GET {similarsRef}?max_results=25: a title's similars with box art (empty when the service has no such list). */
  similars(similarsRef: string, opts?: { signal?: AbortSignal }): Promise<Page<TitleSummary>>;
  /** GET {ref}, then its filmography list (titles with box art). */
  person(ref: string, opts?: { signal?: AbortSignal }): Promise<Person>;
  /** GET /categories/{scheme}. */
  categories(scheme: CategoryScheme): Promise<Category[]>;
}

export function catalogClient(transport: Transport, base: () => string): CatalogClient {
  /** The first `max` titles of a linked list; none when there is no link or the service has no such list (404). */
  const pageOrEmpty = async (
    url: string | null,
    max: number,
    parse: (body: string) => Page<TitleSummary>,
    signal?: AbortSignal,
  ): Promise<Page<TitleSummary>> => {
    const none: Page<TitleSummary> = { items: [], total: 0, start: 0, perPage: max };
    if (!url) return none;
    try {
      return await readParsed(
        transport,
        { url, query: { max_results: String(max) }, level: 'signed', ...signalOf(signal) },
        (res) => parse(res.body),
      );
    } catch (error) {
      if (error instanceof ServiceError && error.appError.kind === 'not_found') return none;
      throw error;
    }
  };
  return {
    async search(term, paging) {
      return readParsed(
        transport,
        {
          url: `${base()}/catalog/titles`,
          query: { term, ...pagingQuery(paging) },
          level: 'signed',
          ...signalOf(paging?.signal),
        },
        (res) => parseTitlePage(res.body),
      );
    },
    async autocomplete(term, opts) {
      return readParsed(
        transport,
        { url: `${base()}/catalog/titles/autocomplete`, query: { term }, level: 'key', ...signalOf(opts?.signal) },
        (res) => parseAutocomplete(res.body),
      );
    },
    async browse({ genre, type, availableNow, ...paging }) {
      const query: Record<string, string> = { genre, ...pagingQuery(paging) };
      if (type) query.title_type = type;
      if (availableNow) query.available_now = 'true';
      return readParsed(
        transport,
        { url: `${base()}/catalog/titles`, query, level: 'signed', ...signalOf(paging.signal) },
        (res) => parseTitlePage(res.body),
      );
    },
    async people(term, paging) {
      return readParsed(
        transport,
        {
          url: `${base()}/catalog/people`,
          query: { term, ...pagingQuery(paging) },
          level: 'signed',
          ...signalOf(paging?.signal),
        },
        (res) => parsePeoplePage(res.body),
      );
    },
    async title(ref, opts) {
      const req: ServiceRequest = {
        url: ref,
        query: { v: '1.5', expand: titleExpand(opts?.type) },
        level: 'signed',
        ...signalOf(opts?.signal),
      };
      const detail = await readParsed(transport, req, (res) => parseTitle(res.body));
      return { ...detail, similars: detail.similars.slice(0, SIMILARS_SHOWN) };
    },
    async titleAvailability(ref, opts) {
      try {
        return await readParsed(
          transport,
          { url: ref, query: { expand: 'formats' }, level: 'signed', ...signalOf(opts?.signal) },
          (res) => parseTitle(res.body),
        );
      } catch (error) {
        if (error instanceof ServiceError && error.appError.kind === 'not_found') return null;
        throw error;
      }
    },
    async similars(similarsRef, opts) {
      return pageOrEmpty(similarsRef, SIMILARS_SHOWN, parseTitlePage, opts?.signal);
    },
    async person(ref, opts) {
      const { person, filmographyUrl } = await readParsed(
        transport,
        { url: ref, level: 'signed', ...signalOf(opts?.signal) },
        (res) => parsePerson(res.body),
      );
      return {
        ...person,
        filmography: (await pageOrEmpty(filmographyUrl, FILMOGRAPHY_SHOWN, parseFilmography, opts?.signal)).items,
      };
    },
    async categories(scheme) {
      return readParsed(transport, { url: `${base()}/categories/${scheme}`, level: 'signed' }, (res) =>
        parseCategories(res.body),
      );
    },
  };
}
