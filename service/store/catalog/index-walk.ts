import type { Db } from '../db.ts';
import type { IndexTitle, PersonRef } from '../../model/title.ts';
import { sqliteIndexBatchReader } from './index-walk-sqlite.ts';

/** The next `limit` titles after `afterId` in id order, as the index shows them ([] at the end). */
export type IndexBatchReader = (afterId: number, limit: number) => Promise<IndexTitle[]>;

/**
 * Reads the catalog for one index walk: four range reads per batch (a batch's ids are every id
 * between its first and last), no synopses, no IN-lists. People's names are read once per walk
 * (a credit row then needs no join: the join was half the walk's SQL time), and any person added
 * since is looked up when first met. On SQLite the same reads run as fixed texts with rows as
 * arrays (index-walk-sqlite.ts); on PostgreSQL through the query builder (below).
 */
export function indexBatchReader(db: Db): IndexBatchReader {
  if (db.sqliteRows?.kysely === db.kysely) return sqliteIndexBatchReader(db, db.sqliteRows, peopleByIdAmong);
  let people: Map<number, PersonRef> | undefined;
  return async (afterId, limit) => {
    people ??= await peopleByIdAmong(db);
    return readIndexBatch(db, afterId, limit, people);
  };
}

/** People as refs by id (all of them without `ids`): one object per person, shared by their credits. */
async function peopleByIdAmong(db: Db, ids?: readonly number[]): Promise<Map<number, PersonRef>> {
  let query = db.kysely.selectFrom('people').select(['id', 'name']);
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.id, r]));
}

async function readIndexBatch(
  db: Db,
  afterId: number,
  limit: number,
  people: Map<number, PersonRef>,
): Promise<IndexTitle[]> {
  const k = db.kysely;
  const rows = await k
    .selectFrom('titles')
    .select(['id', 'type', 'series_id', 'title', 'release_year', 'updated', 'mpaa_rating', 'tv_rating'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const [first, last] = [rows[0]!.id, rows[rows.length - 1]!.id];
  const [genres, formats, credits] = await Promise.all([
    k
      .selectFrom('title_genres')
      .select(['title_id', 'genre'])
      .where('title_id', '>=', first)
      .where('title_id', '<=', last)
      .orderBy('title_id')
      .orderBy('genre')
      .execute(),
    k
      .selectFrom('availability')
      .selectAll()
      .where('title_id', '>=', first)
      .where('title_id', '<=', last)
      .orderBy('title_id')
      .orderBy('format')
      .execute(),
    k
      .selectFrom('credits')
      .select(['title_id', 'role', 'person_id'])
      .where('title_id', '>=', first)
      .where('title_id', '<=', last)
      .where('role', 'in', ['cast', 'director'])
      .orderBy('title_id')
      .orderBy('role')
      .orderBy('ordinal')
      .execute(),
  ]);
  const unnamed = credits.filter((c) => !people.has(c.person_id)).map((c) => c.person_id);
  if (unnamed.length > 0)
    for (const [id, person] of await peopleByIdAmong(db, [...new Set(unnamed)])) people.set(id, person);
  const byId = new Map<number, IndexTitle>();
  const titles = rows.map((row) => {
    const title = row as IndexTitle; // the row itself, grown: one object fewer per title
    title.genres = [];
    title.formats = [];
    title.cast = [];
    title.directors = [];
    byId.set(row.id, title);
    return title;
  });
  // `?.`: a title added inside the range since the batch's titles were read is not in this walk.
  for (const g of genres) byId.get(g.title_id)?.genres.push(g.genre);
  for (const f of formats) byId.get(f.title_id)?.formats.push(f);
  for (const c of credits) {
    const person = people.get(c.person_id);
    const title = byId.get(c.title_id);
    if (person === undefined || title === undefined) continue; // a credit of no person: skipped, as by the join it replaces
    (c.role === 'cast' ? title.cast : title.directors).push(person);
  }
  return titles;
}
