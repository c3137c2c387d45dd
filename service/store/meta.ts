import type { Db } from './db.ts';

/** Small facts about the database itself (what was seeded, the demo consumer's key). */
export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const row = await db.kysely.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db.kysely
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
