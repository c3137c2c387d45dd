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
