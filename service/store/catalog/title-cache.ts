import type { Db } from '../db.ts';
import { catalogGeneration } from './generation.ts';
import type { TitleRecord } from '../../model/title.ts';

/** Title records a process keeps; past this the whole set is dropped and refilled on demand. */
export const TITLE_CACHE_ENTRIES = 20_000;

/**
 * Title records (row, genres, formats, disc flag) are a function of the catalog, which changes only
 * by a load, and every load bumps the catalog generation (generation.ts): a record read once is
 * kept for that generation, so a queue page of 50 entries reads no title rows after the first time.
 * `load` is called with the ids not kept; records it returns are shared, callers must not mutate them.
 */
export async function cachedTitles(
  db: Db,
  ids: readonly number[],
  load: (missing: number[]) => Promise<Map<number, TitleRecord>>,
): Promise<Map<number, TitleRecord>> {
  const generation = await catalogGeneration(db);
  let h = db.caches.titles;
  if (!h || h.generation !== generation) {
    h = { generation, records: new Map() };
    db.caches.titles = h;
  }
  const records = h.records;
  const missing = ids.filter((id) => !records.has(id));
  const loaded = missing.length > 0 ? await load(missing) : new Map<number, TitleRecord>();
  const out = new Map<number, TitleRecord>();
  for (const id of ids) {
    const record = records.get(id) ?? loaded.get(id);
    if (record) out.set(id, record);
  }
  if (records.size + loaded.size > TITLE_CACHE_ENTRIES) records.clear();
  for (const [id, record] of loaded) records.set(id, record);
  return out;
}
