import type { Selectable } from 'kysely';
import type { Db } from '../db.ts';
import type { RentalsTable } from '../schema.ts';

export type Rental = Omit<Selectable<RentalsTable>, 'user_id'>;
export type NewRental = Omit<Selectable<RentalsTable>, 'id' | 'user_id' | 'updated'>;

/** The whole history, and its three views: discs shipped, discs returned, instant watches. */
export const HISTORY_VIEWS = ['all', 'shipped', 'returned', 'watched'] as const;
export type HistoryView = (typeof HISTORY_VIEWS)[number];

export interface HistoryQuery {
  /** Only rentals updated at or after this time (Unix seconds). */
  updatedMin?: number | undefined;
  start: number;
  max: number;
}

/** The date a view orders its items by, newest first. */
const ORDER_COLUMN = {
  all: 'updated',
  shipped: 'shipped_date',
  returned: 'returned_date',
  watched: 'watched_date',
} as const;

const COLUMNS = [
  'id',
  'title_id',
  'format',
  'shipped_date',
  'returned_date',
  'watched_date',
  'viewed_time',
  'updated',
] as const;

function inView(db: Db, userId: string, view: HistoryView | 'at_home', updatedMin: number | undefined) {
  let q = db.kysely.selectFrom('rentals').where('user_id', '=', userId);
  if (view === 'shipped') q = q.where('shipped_date', 'is not', null);
  if (view === 'returned') q = q.where('returned_date', 'is not', null);
  if (view === 'watched') q = q.where('watched_date', 'is not', null);
  if (view === 'at_home') q = q.where('shipped_date', 'is not', null).where('returned_date', 'is', null);
  if (updatedMin !== undefined) q = q.where('updated', '>=', updatedMin);
  return q;
}

/** One page of a history view, newest first, and how many rentals the view holds in all. */
export async function readHistory(
  db: Db,
  userId: string,
  view: HistoryView | 'at_home',
  query: HistoryQuery,
): Promise<{ total: number; rentals: Rental[] }> {
  const order = view === 'at_home' ? 'shipped_date' : ORDER_COLUMN[view];
  const [count, rows] = await Promise.all([
    inView(db, userId, view, query.updatedMin)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    inView(db, userId, view, query.updatedMin)
      .select(COLUMNS)
      .orderBy(order, 'desc')
      .orderBy('id', 'desc')
      .limit(query.max)
      .offset(query.start)
      .execute(),
  ]);
  return { total: Number(count.n), rentals: rows.map(normalise) };
}

/** The latest rental of a title in a view, if any (the target of a history item's id). */
export async function findRental(
  db: Db,
  userId: string,
  view: HistoryView,
  titleId: number,
): Promise<Rental | undefined> {
  const row = await inView(db, userId, view, undefined)
    .select(COLUMNS)
    .where('title_id', '=', titleId)
    .orderBy(view === 'all' ? 'updated' : ORDER_COLUMN[view], 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && normalise(row);
}

/** Titles of the discs the subscriber has at home (shipped, not yet returned). */
export async function atHomeTitleIds(db: Db, userId: string): Promise<number[]> {
  const rows = await inView(db, userId, 'at_home', undefined)
    .select('title_id')
    .orderBy('shipped_date', 'desc')
    .execute();
  return rows.map((r) => r.title_id);
}

/** The time of a rental's latest event. */
export function rentalUpdated(r: Pick<RentalsTable, 'shipped_date' | 'returned_date' | 'watched_date'>): number {
  return Math.max(r.shipped_date ?? 0, r.returned_date ?? 0, r.watched_date ?? 0);
}

/** Records rentals (the demo subscriber's history; there is no write through the API). */
export async function insertRentals(db: Db, userId: string, rentals: readonly NewRental[]): Promise<void> {
  if (rentals.length === 0) return;
  await db.kysely
    .insertInto('rentals')
    .values(rentals.map((r) => ({ ...r, user_id: userId, updated: rentalUpdated(r) })))
    .execute();
}

export async function hasRentals(db: Db, userId: string): Promise<boolean> {
  return (
    (await db.kysely.selectFrom('rentals').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !==
    undefined
  );
}

function normalise(row: Rental): Rental {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: Number(row.id),
    title_id: Number(row.title_id),
    format: row.format,
    shipped_date: num(row.shipped_date),
    returned_date: num(row.returned_date),
    watched_date: num(row.watched_date),
    viewed_time: num(row.viewed_time),
    updated: Number(row.updated),
  };
}
