import { GENRES } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import type { Params } from '../../http/params.ts';
import type { Paging } from '../../model/paging.ts';
import { browseTitles, type BrowseFilter } from '../../store/search/browse.ts';
import type { SearchPage } from '../../store/search/index.ts';

const TITLE_TYPES = ['movie', 'series'] as const;

/**
 * The titles `/catalog/titles` answers with: a plain `term` search as the spec has it, or, with any
 * of the extension's filters (`genre`, `title_type`, `available_now=true`), the titles passing all
 * of them (and the term's words, when a term is given too), best rated first. Without `genre` the
 * term stays required, with the same error as ever.
 */
export async function findTitles(svc: ServiceContext, query: TitleQuery, paging: Paging): Promise<SearchPage> {
  const { term, genre, type, availableNow } = query;
  if (genre === undefined && type === undefined && !availableNow)
    return svc.search.titles(term!, paging.start, paging.max);
  const filter: BrowseFilter = { genre, type, availableAt: availableNow ? svc.now() : undefined };
  if (term !== undefined) {
    const match = svc.search.titleMatch(term);
    if (match === null) return { ids: [], total: 0 };
    filter.match = match;
  }
  return browseTitles(svc.db, filter, paging.start, paging.max);
}

export interface TitleQuery {
  term?: string | undefined;
  genre?: string | undefined;
  type?: BrowseFilter['type'];
  availableNow: boolean;
}

/** Reads and checks the query's parameters; a missing `term` without `genre` is 400 "term is required". */
export function titleQueryOf(params: Params): TitleQuery {
  const genre = genreOf(params);
  const term = genre === undefined ? params.require('term') : nonEmpty(params.get('term'));
  return { term, genre, type: typeOf(params), availableNow: availableNowOf(params) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** `genre`: one of the terms `/categories/genres` lists, exactly (case and punctuation included). */
function genreOf(params: Params): string | undefined {
  const genre = nonEmpty(params.get('genre'));
  if (genre !== undefined && !(GENRES as readonly string[]).includes(genre)) throw ApiError.invalid('genre');
  return genre;
}

function typeOf(params: Params): BrowseFilter['type'] {
  const type = nonEmpty(params.get('title_type'));
  if (type !== undefined && !(TITLE_TYPES as readonly string[]).includes(type)) throw ApiError.invalid('title_type');
  return type as BrowseFilter['type'];
}

function availableNowOf(params: Params): boolean {
  const value = nonEmpty(params.get('available_now'));
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw ApiError.invalid('available_now');
}
