import type { Db } from '../../service/store/db.ts';

/** Movies that stream now and for at least another day: safe to add to an instant queue. */
export async function instantMovieIds(db: Db, count: number): Promise<number[]> {
  const now = Math.floor(Date.now() / 1000);
  const rows = await db.kysely
    .selectFrom('titles')
    .innerJoin('availability', 'availability.title_id', 'titles.id')
    .select('titles.id')
    .where('titles.type', '=', 'movie')
    .where('availability.format', '=', 'instant')
    .where('availability.available_from', '<', now)
    .where((eb) => eb.or([eb('availability.available_until', 'is', null), eb('availability.available_until', '>', now + 86400)]))
    .orderBy('titles.id')
    .limit(count)
    .execute();
  return rows.map((r) => r.id);
}
