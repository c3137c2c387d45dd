import type { Db } from '../db.ts';

/** `meta` key of the catalog generation: a number every catalog load or clear increases. */
const GENERATION = 'catalog_generation';
/**
 * How long this process trusts the generation it read: a load made by another process (`seed`
 * on a shared PostgreSQL) is seen within this time; one made through this process at once.
 */
export const GENERATION_REFRESH_MS = 1000;

/** The catalog's generation: the base of every catalog representation's cache key. */
export async function catalogGeneration(db: Db, nowMs = Date.now()): Promise<number> {
  const h = db.caches.generation;
  if (h && h.until > nowMs) return h.value;
  const row = await db.kysely.selectFrom('meta').select('value').where('key', '=', GENERATION).executeTakeFirst();
  const value = Number(row?.value ?? 0);
  db.caches.generation = { value, until: nowMs + GENERATION_REFRESH_MS };
  return value;
}

/** The generation as last read, while it is still trusted; undefined when `catalogGeneration` must read it. */
export function heldGeneration(db: Db, nowMs = Date.now()): number | undefined {
  const h = db.caches.generation;
  return h && h.until > nowMs ? h.value : undefined;
}

/** Called by every catalog load and clear (catalog/load.ts). */
export async function bumpGeneration(db: Db): Promise<number> {
  const value = (await catalogGeneration(db, Infinity)) + 1;
  await db.kysely
    .insertInto('meta')
    .values({ key: GENERATION, value: String(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(value) }))
    .execute();
  db.caches.generation = { value, until: Date.now() + GENERATION_REFRESH_MS };
  return value;
}
