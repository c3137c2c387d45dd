import type { Selectable } from 'kysely';
import type { Db } from '../db.ts';
import type { ListsTable } from '../schema.ts';

export interface TitleList {
  id: number;
  name: string;
  created: number;
  updated: number;
  number_of_items: number;
}

/** Lists with their fields and how many titles each holds, to be narrowed by the caller. */
function listsWithCounts(db: Db) {
  return db.kysely
    .selectFrom('lists')
    .select(['id', 'name', 'created', 'updated'])
    .select((eb) =>
      eb
        .selectFrom('list_items')
        .whereRef('list_items.list_id', '=', 'lists.id')
        .select((e) => e.fn.countAll<number>().as('c'))
        .as('number_of_items'),
    );
}

/** One page of a subscriber's lists in the order they were made, and how many there are. */
export async function readLists(
  db: Db,
  userId: string,
  paging: { start: number; max: number },
): Promise<{ total: number; lists: TitleList[] }> {
  const k = db.kysely;
  const [count, rows] = await Promise.all([
    k
      .selectFrom('lists')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    listsWithCounts(db).where('user_id', '=', userId).orderBy('id').limit(paging.max).offset(paging.start).execute(),
  ]);
  return { total: Number(count.n), lists: rows.map(normalise) };
}

/** One of the subscriber's lists; undefined when the id is unknown or another subscriber's. */
export async function getList(db: Db, userId: string, listId: number): Promise<TitleList | undefined> {
  const row = await listsWithCounts(db).where('user_id', '=', userId).where('id', '=', listId).executeTakeFirst();
  return row && normalise(row);
}

/** One page of a list's title ids, in list order. */
export async function listTitleIds(db: Db, listId: number, paging: { start: number; max: number }): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('list_items')
    .select('title_id')
    .where('list_id', '=', listId)
    .orderBy('position')
    .limit(paging.max)
    .offset(paging.start)
    .execute();
  return rows.map((r) => Number(r.title_id));
}

/**
 * Makes a list holding titles in order (the demo subscriber's lists; the API only reads them).
 * Two statements: run it inside the caller's transaction when the pair must land together.
 */
export async function createList(
  db: Db,
  userId: string,
  name: string,
  titleIds: readonly number[],
  now: number,
): Promise<number> {
  const k = db.kysely;
  const { id } = await k
    .insertInto('lists')
    .values({ user_id: userId, name, created: now, updated: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (titleIds.length > 0) {
    await k
      .insertInto('list_items')
      .values(titleIds.map((title_id, i) => ({ list_id: Number(id), position: i + 1, title_id, added: now })))
      .execute();
  }
  return Number(id);
}

export async function hasLists(db: Db, userId: string): Promise<boolean> {
  return (
    (await db.kysely.selectFrom('lists').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !==
    undefined
  );
}

function normalise(
  row: Pick<Selectable<ListsTable>, 'id' | 'name' | 'created' | 'updated'> & { number_of_items: number | null },
): TitleList {
  return {
    id: Number(row.id),
    name: row.name,
    created: Number(row.created),
    updated: Number(row.updated),
    number_of_items: Number(row.number_of_items ?? 0),
  };
}
