import type { Db } from '../db.ts';
import type { TitleType } from '../../../shared/protocol/index.ts';
import type { Person } from '../../model/person.ts';
import type { IndexTitle, PersonRef, TitleDetails, TitleRecord } from '../../model/title.ts';
import { cachedTitles } from './title-cache.ts';

/**
 * Titles by id with genres and formats: kept per catalog generation (title-cache.ts), the ids not
 * kept read in four queries whatever their number.
 */
export async function getTitles(db: Db, ids: readonly number[]): Promise<Map<number, TitleRecord>> {
  if (ids.length === 0) return new Map();
  return cachedTitles(db, [...new Set(ids)], (missing) => readTitles(db, missing));
}

/**
 * Title records read from the store, never kept: what a walk over the whole catalog (the index
 * stream) uses, so that it does not flush the kept records. `discs` false: `hasDiscs` is not read
 * (false), one query fewer for a representation that does not show it.
 */
export async function readTitles(db: Db, unique: readonly number[], discs = true): Promise<Map<number, TitleRecord>> {
  const out = new Map<number, TitleRecord>();
  const k = db.kysely;
  const [rows, genres, formats, discParents] = await Promise.all([
    k.selectFrom('titles').selectAll().where('id', 'in', unique).execute(),
    k.selectFrom('title_genres').selectAll().where('title_id', 'in', unique).orderBy('genre').execute(),
    k.selectFrom('availability').selectAll().where('title_id', 'in', unique).orderBy('format').execute(),
    discs ? discHolders(db, unique) : [],
  ]);
  const withDiscs = new Set(discParents);
  for (const row of rows) out.set(row.id, { ...row, genres: [], formats: [], hasDiscs: withDiscs.has(row.id) });
  for (const g of genres) out.get(g.title_id)?.genres.push(g.genre);
  for (const f of formats) out.get(f.title_id)?.formats.push(f);
  return out;
}

/**
 * Which of `ids` have discs: a movie or season that is the parent of a disc, a series one of whose
 * seasons is. One query (whatever the ids' types, so it runs beside the title rows), each branch a
 * search of the `titles_parent_type` index (migration 008) per id.
 */
async function discHolders(db: Db, ids: readonly number[]): Promise<number[]> {
  const rows = await discHoldersQuery(db, ids).execute();
  return rows.map((r) => Number(r.id));
}

/** The statement `discHolders` runs (exported so a test can read its query plan). */
export function discHoldersQuery(db: Db, ids: readonly number[]) {
  const k = db.kysely;
  return k
    .selectFrom('titles as d')
    .select('d.parent_id as id')
    .where('d.parent_id', 'in', ids)
    .where('d.type', '=', 'disc')
    .union(
      k
        .selectFrom('titles as s')
        .select('s.parent_id as id')
        .where('s.parent_id', 'in', ids)
        .where('s.type', '=', 'season')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('titles as sd')
              .select('sd.id')
              .whereRef('sd.parent_id', '=', 's.id')
              .where('sd.type', '=', 'disc'),
          ),
        ),
    );
}

export async function getTitle(db: Db, id: number): Promise<TitleRecord | undefined> {
  return (await getTitles(db, [id])).get(id);
}

/** Titles in the order of `ids`, skipping any that do not exist. */
export async function getTitlesInOrder(db: Db, ids: readonly number[]): Promise<TitleRecord[]> {
  const map = await getTitles(db, ids);
  return ids.map((id) => map.get(id)).filter((t): t is TitleRecord => t !== undefined);
}

/** Cast or directors of each title, in billing order. */
export async function getCredits(
  db: Db,
  titleIds: readonly number[],
  role: 'cast' | 'director',
): Promise<Map<number, PersonRef[]>> {
  const out = new Map<number, PersonRef[]>();
  if (titleIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('credits')
    .innerJoin('people', 'people.id', 'credits.person_id')
    .select(['credits.title_id', 'people.id', 'people.name'])
    .where('credits.title_id', 'in', [...new Set(titleIds)])
    .where('credits.role', '=', role)
    .orderBy('credits.title_id')
    .orderBy('credits.ordinal')
    .execute();
  for (const r of rows) push(out, r.title_id, { id: r.id, name: r.name });
  return out;
}

export async function getSimilarIds(db: Db, titleIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (titleIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('similars')
    .select(['title_id', 'similar_id'])
    .where('title_id', 'in', [...new Set(titleIds)])
    .orderBy('title_id')
    .orderBy('ordinal')
    .execute();
  for (const r of rows) push(out, r.title_id, r.similar_id);
  return out;
}

/**
 * Member ids of a series or season: `season` members of a series, `program` (episodes) of a
 * series or season, `disc` of a season or movie. Ordered by season/episode/disc number.
 */
export async function getMemberIds(
  db: Db,
  parentIds: readonly number[],
  type: TitleType,
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (parentIds.length === 0) return out;
  const unique = [...new Set(parentIds)];
  const parents = await db.kysely.selectFrom('titles').select(['id', 'type']).where('id', 'in', unique).execute();
  const seriesIds = parents.filter((p) => p.type === 'series').map((p) => p.id);
  const otherIds = parents.filter((p) => p.type !== 'series').map((p) => p.id);
  if (type === 'program' && seriesIds.length > 0) {
    // A series' episodes are its seasons' episodes, season by season.
    const rows = await db.kysely
      .selectFrom('titles as e')
      .innerJoin('titles as s', 's.id', 'e.parent_id')
      .select(['e.id', 'e.series_id'])
      .where('e.type', '=', 'program')
      .where('e.series_id', 'in', seriesIds)
      .orderBy('s.sequence')
      .orderBy('e.sequence')
      .execute();
    for (const r of rows) push(out, r.series_id!, r.id);
  }
  if (type === 'disc' && seriesIds.length > 0) {
    const rows = await db.kysely
      .selectFrom('titles as d')
      .innerJoin('titles as s', 's.id', 'd.parent_id')
      .select(['d.id', 's.parent_id'])
      .where('d.type', '=', 'disc')
      .where('s.type', '=', 'season')
      .where('s.parent_id', 'in', seriesIds)
      .orderBy('s.sequence')
      .orderBy('d.sequence')
      .execute();
    for (const r of rows) push(out, r.parent_id!, r.id);
  }
  const direct = type === 'season' ? unique : type === 'program' || type === 'disc' ? otherIds : [];
  if (direct.length > 0) {
    const rows = await db.kysely
      .selectFrom('titles')
      .select(['id', 'parent_id'])
      .where('type', '=', type)
      .where('parent_id', 'in', direct)
      .orderBy('parent_id')
      .orderBy('sequence')
      .execute();
    for (const r of rows) push(out, r.parent_id!, r.id);
  }
  return out;
}

export async function getDetails(db: Db, titleIds: readonly number[]): Promise<Map<number, TitleDetails>> {
  const out = new Map<number, TitleDetails>();
  if (titleIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('title_details')
    .selectAll()
    .where('title_id', 'in', [...new Set(titleIds)])
    .execute();
  for (const r of rows) out.set(r.title_id, r);
  return out;
}

export async function getPeople(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('people')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** The people with these ids, in the order given; unknown ids are left out. */
export async function getPeopleInOrder(db: Db, ids: readonly number[]): Promise<Person[]> {
  const byId = new Map((await getPeople(db, ids)).map((p) => [p.id, p]));
  return ids.map((id) => byId.get(id)).filter((p): p is Person => p !== undefined);
}

/** A person's titles, newest first, one page of them, with the total. */
export async function getFilmography(
  db: Db,
  personId: number,
  start: number,
  max: number,
): Promise<{ ids: number[]; total: number }> {
  const base = db.kysely
    .selectFrom('credits')
    .innerJoin('titles', 'titles.id', 'credits.title_id')
    .where('credits.person_id', '=', personId);
  const [countRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.count<number>('credits.title_id').distinct().as('n')).executeTakeFirst(),
    base
      .select(['titles.id', 'titles.release_year'])
      .distinct()
      .orderBy('titles.release_year', 'desc')
      .orderBy('titles.id')
      .limit(max)
      .offset(start)
      .execute(),
  ]);
  return { ids: rows.map((r) => r.id), total: Number(countRow?.n ?? 0) };
}

/** Titles in id order after `afterId`: the catalog index streams through this a page at a time. */
export async function getTitlePageAfter(db: Db, afterId: number, limit: number): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('titles')
    .select('id')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The next `limit` titles after `afterId` in id order, as the index shows them ([] at the end). */
export type IndexBatchReader = (afterId: number, limit: number) => Promise<IndexTitle[]>;

/**
 * Reads the catalog for one index walk: four range reads per batch (a batch's ids are every id
 * between its first and last), no synopses, no IN-lists. People's names are read once per walk
 * (a credit row then needs no join: the join was half the walk's SQL time), and any person added
 * since is looked up when first met.
 */
export function indexBatchReader(db: Db): IndexBatchReader {
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

/** Changes whenever the catalog does: count and the newest update. */
export async function catalogVersion(db: Db): Promise<string> {
  const row = await db.kysely
    .selectFrom('titles')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('updated').as('updated'),
      eb.fn.max('id').as('max_id'),
    ])
    .executeTakeFirst();
  return `${row?.n ?? 0}-${row?.updated ?? 0}-${row?.max_id ?? 0}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
