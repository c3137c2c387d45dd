import type { TitleType } from '../../shared/protocol/index.ts';
import type { Db } from '../../service/store/db.ts';

/** Titles of a type offered now in a format, and for at least another day, in id order. */
export async function availableTitleIds(db: Db, type: TitleType, format: string, count: number): Promise<number[]> {
  const now = Math.floor(Date.now() / 1000);
  const rows = await db.kysely
    .selectFrom('titles')
    .innerJoin('availability', 'availability.title_id', 'titles.id')
    .select('titles.id')
    .where('titles.type', '=', type)
    .where('availability.format', '=', format)
    .where('availability.available_from', '<', now)
    .where((eb) =>
      eb.or([eb('availability.available_until', 'is', null), eb('availability.available_until', '>', now + 86400)]),
    )
    .orderBy('titles.id')
    .limit(count)
    .execute();
  return rows.map((r) => r.id);
}

/** Movies that stream now and for at least another day: safe to add to an instant queue. */
export function instantMovieIds(db: Db, count: number): Promise<number[]> {
  return availableTitleIds(db, 'movie', 'instant', count);
}

/** The first title (by id) of a type, optionally under a parent (`series_id` or `parent_id`). */
async function firstTitleId(db: Db, type: TitleType, parent?: { column: 'series_id' | 'parent_id'; id: number }) {
  let query = db.kysely.selectFrom('titles').select(['id']).where('type', '=', type);
  if (parent) query = query.where(parent.column, '=', parent.id);
  return (await query.orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
}

/** The catalog's first series, its first season, and that season's first episode and disc, as refs under `base`. */
export async function firstSeriesRefs(
  db: Db,
  base: string,
): Promise<{ series: string; season: string; episode: string; disc: string }> {
  const series = await firstTitleId(db, 'series');
  const season = await firstTitleId(db, 'season', { column: 'series_id', id: series });
  const episode = await firstTitleId(db, 'program', { column: 'parent_id', id: season });
  const disc = await firstTitleId(db, 'disc', { column: 'parent_id', id: season });
  const t = `${base}/catalog/titles`;
  return {
    series: `${t}/series/${series}`,
    season: `${t}/series/${series}/seasons/${season}`,
    episode: `${t}/programs/${episode}`,
    disc: `${t}/discs/${disc}`,
  };
}

/** Movies of the catalog in id order, whatever their availability, after skipping `skip`. */
export async function movieIds(db: Db, count: number, skip = 0): Promise<number[]> {
  let query = db.kysely.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id').limit(count);
  if (skip) query = query.offset(skip);
  return (await query.execute()).map((r) => r.id);
}

/** The catalog's first movie (by id), whatever its availability. */
export async function firstMovieId(db: Db): Promise<number> {
  return (await movieIds(db, 1))[0]!;
}

/** Ids of the titles (a subquery) offered in `format` since an hour before `now` at least, with no end. */
export function offeredWithNoEnd(db: Db, format: string, now: number) {
  return db.kysely
    .selectFrom('availability')
    .select('title_id')
    .where('format', '=', format)
    .where('available_from', '<=', now - 3600)
    .where('available_until', 'is', null);
}

/** Ids of the titles (a subquery) offered in `format` from more than a day after `now`. */
export function offeredFromTomorrow(db: Db, format: string, now: number) {
  return db.kysely
    .selectFrom('availability')
    .select('title_id')
    .where('format', '=', format)
    .where('available_from', '>', now + 86_400);
}

/** How many titles the catalog holds, counted straight from the store. */
export async function countTitles(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('titles')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
