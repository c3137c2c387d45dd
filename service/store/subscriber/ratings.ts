import type { Rating, RatingValue } from '../../model/rating.ts';
import type { Db } from '../db.ts';

/** Stored value of "not interested". */
export const NOT_INTERESTED = 0;

/**
 * A `rating` parameter: `1`–`5`, `not_interested`, or (when `allowClear`) `no_opinion`, which is
 * returned as null. Anything else is undefined (the caller answers 400 `rating is invalid`).
 */
export function parseRating(raw: string, allowClear: boolean): RatingValue | null | undefined {
  const v = raw.trim().toLowerCase();
  if (/^[1-5]$/.test(v)) return Number(v) as RatingValue;
  if (v === 'not_interested') return 'not_interested';
  if (v === 'no_opinion' && allowClear) return null;
  return undefined;
}

function toStored(value: RatingValue): number {
  return value === 'not_interested' ? NOT_INTERESTED : value;
}

function fromRow(r: { title_id: number; rating: number; created: number; updated: number }): Rating {
  const stars = Number(r.rating);
  return {
    titleId: Number(r.title_id),
    value: stars >= 1 && stars <= 5 ? (stars as RatingValue) : 'not_interested',
    created: Number(r.created),
    updated: Number(r.updated),
  };
}

/** The subscriber's ratings of the given titles (those not rated are absent). */
export async function getRatings(db: Db, userId: string, titleIds: readonly number[]): Promise<Map<number, Rating>> {
  const out = new Map<number, Rating>();
  if (titleIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('ratings')
    .select(['title_id', 'rating', 'created', 'updated'])
    .where('user_id', '=', userId)
    .where('title_id', 'in', [...new Set(titleIds)])
    .execute();
  for (const r of rows) out.set(Number(r.title_id), fromRow(r));
  return out;
}

/** One page of the subscriber's ratings, newest first, with their total. */
export async function listRatings(
  db: Db,
  userId: string,
  start: number,
  max: number,
): Promise<{ ratings: Rating[]; total: number }> {
  const base = db.kysely.selectFrom('ratings').where('user_id', '=', userId);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select(['title_id', 'rating', 'created', 'updated'])
      .orderBy('updated', 'desc')
      .orderBy('title_id', 'desc')
      .limit(max)
      .offset(start)
      .execute(),
  ]);
  return { ratings: rows.map(fromRow), total: Number(count?.n ?? 0) };
}

/** The subscriber's most recent ratings, at most `limit` (what the recommender learns from). */
export async function recentRatings(db: Db, userId: string, limit: number): Promise<Rating[]> {
  return (await listRatings(db, userId, 0, limit)).ratings;
}

/** Every title the subscriber has rated (any value): these are never recommended. */
export async function ratedTitleIds(db: Db, userId: string): Promise<Set<number>> {
  const rows = await db.kysely.selectFrom('ratings').select('title_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => Number(r.title_id)));
}

/** Records a first rating; false when the title was already rated (nothing changes then). */
export async function createRating(
  db: Db,
  userId: string,
  titleId: number,
  value: RatingValue,
  now: number,
): Promise<boolean> {
  const result = await db.kysely
    .insertInto('ratings')
    .values({ user_id: userId, title_id: titleId, rating: toStored(value), created: now, updated: now })
    .onConflict((oc) => oc.columns(['user_id', 'title_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Sets (creating if need be) or, with null ("no opinion"), clears a rating. */
export async function setRating(
  db: Db,
  userId: string,
  titleId: number,
  value: RatingValue | null,
  now: number,
): Promise<void> {
  if (value === null) {
    await db.kysely.deleteFrom('ratings').where('user_id', '=', userId).where('title_id', '=', titleId).execute();
    return;
  }
  const rating = toStored(value);
  await db.kysely
    .insertInto('ratings')
    .values({ user_id: userId, title_id: titleId, rating, created: now, updated: now })
    .onConflict((oc) => oc.columns(['user_id', 'title_id']).doUpdateSet({ rating, updated: now }))
    .execute();
}
