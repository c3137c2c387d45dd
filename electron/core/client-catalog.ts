import type { Category, Page, Person, TitleDetail, TitleSummary, TitleType } from '../../shared/models.ts';
import type { Transport } from './types.ts';
import { parseAutocomplete, parseCategories } from './xml.ts';
import { parsePerson, parseTitle, parseTitlePage } from './xml-titles.ts';

/** The catalog: search, autocomplete, one title (one request, expanded), people, categories. */

export type CategoryScheme = 'genres' | 'mpaa_ratings' | 'tv_ratings' | 'title_formats' | 'queue_availability' | 'title_states';

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

/** Expansions every title view asks for; `awards` needs v=1.5. */
const TITLE_EXPAND = ['synopsis', 'cast', 'directors', 'formats', 'screen formats', 'languages and audio', 'awards', 'similars'];

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
  /** GET {ref}?v=1.5&expand=… — everything a title view shows, in one request. */
  title(ref: string, opts?: TitleOptions): Promise<TitleDetail>;
  /** GET {ref}?expand=filmography. */
  person(ref: string, opts?: { signal?: AbortSignal }): Promise<Person>;
  /** GET /categories/{scheme}. */
  categories(scheme: CategoryScheme): Promise<Category[]>;
}

export function catalogClient(transport: Transport, base: () => string): CatalogClient {
  return {
    async search(term, paging) {
      const res = await transport.request({ url: `${base()}/catalog/titles`, query: { term, ...pagingQuery(paging) }, level: 'signed', ...signalOf(paging?.signal) });
      return parseTitlePage(res.body);
    },
    async autocomplete(term, opts) {
      const res = await transport.request({ url: `${base()}/catalog/titles/autocomplete`, query: { term }, level: 'key', ...signalOf(opts?.signal) });
      return parseAutocomplete(res.body);
    },
    async title(ref, opts) {
      const res = await transport.request({ url: ref, query: { v: '1.5', expand: titleExpand(opts?.type) }, level: 'signed', ...signalOf(opts?.signal) });
      return parseTitle(res.body);
    },
    async person(ref, opts) {
      const res = await transport.request({ url: ref, query: { expand: 'filmography' }, level: 'signed', ...signalOf(opts?.signal) });
      return parsePerson(res.body);
    },
    async categories(scheme) {
      const res = await transport.request({ url: `${base()}/categories/${scheme}`, level: 'signed' });
      return parseCategories(res.body);
    },
  };
}
