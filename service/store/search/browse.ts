import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db.ts';
import type { SearchPage } from './types.ts';

/** What `/catalog/titles` filters by (the `genre`, `title_type` and `available_now` extension). */
export interface BrowseFilter {
  /** Title ids matching the search term (the dialect's full-text subquery), when a term is given. */
  match?: RawBuilder<unknown>;
  /** A genre term exactly as `/categories/genres` lists it. */
  genre?: string | undefined;
  type?: 'movie' | 'series' | undefined;
  /** Only titles with a delivery window open at this Unix second. */
  availableAt?: number | undefined;
}

/**
 * One page of movies and series passing every filter, best rated first, then by title and id so
 * the order is stable across pages; `total` counts them all. Plain Kysely: both dialects.
 */
export async function browseTitles(db: Db, filter: BrowseFilter, offset: number, limit: number): Promise<SearchPage> {
  const base = filteredTitles(db, filter);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  if (total === 0 || offset >= total) return { ids: [], total };
  const rows = await base
    .select('t.id')
    .orderBy(sql`t.average_rating IS NULL`)
    .orderBy('t.average_rating', 'desc')
    .orderBy('t.title')
    .orderBy('t.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { ids: rows.map((r) => Number(r.id)), total };
}

function filteredTitles(db: Db, filter: BrowseFilter) {
  let q = db.kysely.selectFrom('titles as t').where('t.type', 'in', filter.type ? [filter.type] : ['movie', 'series']);
  if (filter.genre !== undefined) {
    const genre = filter.genre;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('title_genres as g')
          .select('g.title_id')
          .whereRef('g.title_id', '=', 't.id')
          .where('g.genre', '=', genre),
      ),
    );
  }
  if (filter.match !== undefined) q = q.where('t.id', 'in', filter.match as RawBuilder<number>);
  if (filter.availableAt !== undefined) {
    const now = filter.availableAt;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('availability as a')
          .select('a.title_id')
          .whereRef('a.title_id', '=', 't.id')
          .where('a.available_from', '<=', now)
          .where((w) => w.or([w('a.available_until', 'is', null), w('a.available_until', '>', now)])),
      ),
    );
  }
  return q;
}
