import { loadCatalog } from '../store/catalog/load.ts';
import { LOAD_PAGE_CACHE_MB, MAX_LOAD_PAGE_CACHE_MB } from '../store/catalog/sqlite-bulk.ts';
import type { Db } from '../store/db.ts';
import { getMeta, setMeta } from '../store/meta.ts';
import { fail, usage, type CommandOptions } from './options.ts';

export const SEED_USAGE = 'seed --synthetic N [--page-cache-mb M]';

/**
 * `seed --synthetic N [--page-cache-mb M]`: loads N invented titles (1 to 1,000,000), once per
 * database. `--page-cache-mb` is SQLite's page cache for the load (256 MB by default; a machine
 * with little memory gives less, at the price of more writes); PostgreSQL has no use for it.
 */
export async function runSeedCommand(db: Db, opts: CommandOptions): Promise<number> {
  const count = Number(opts.positional[0]);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000 || opts.positional.length > 1)
    return usage(`${SEED_USAGE} (N: 1 to 1000000)`);
  const pageCacheMb = pageCacheOption(opts.get('--page-cache-mb'));
  if (typeof pageCacheMb === 'string') return fail(pageCacheMb);
  // Synthetic ids are fixed, so a second seed would collide with the first.
  const seeded = await getMeta(db, 'synthetic');
  if (seeded !== undefined)
    return fail(`${seeded} synthetic titles are already loaded; seed a fresh data directory or database`);
  const started = Date.now();
  // Loaded only here: its word list and names stay out of the service's start-up.
  const { syntheticCatalog } = await import('../data/synthetic/catalog.ts');
  // The marks commit with the rows: a seed killed midway leaves neither, and can simply be run again.
  const loaded = await loadCatalog(db, syntheticCatalog(count, Math.floor(Date.now() / 1000)), {
    pageCacheMb,
    finish: async (inLoad) => {
      await setMeta(inLoad, 'synthetic', String(count));
      // Seeding a fresh store makes it a synthetic catalog: the service's first start must not take
      // it for an interrupted demo load and clear it. On top of the demo, the demo mark stays.
      if ((await getMeta(inLoad, 'catalog')) === undefined) await setMeta(inLoad, 'catalog', 'synthetic');
    },
  });
  console.log(`loaded ${loaded} synthetic titles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

/** `--page-cache-mb`: whole megabytes in range, the default when absent, or what is wrong, in words. */
function pageCacheOption(value: string | undefined): number | string {
  if (value === undefined) return LOAD_PAGE_CACHE_MB;
  const mb = Number(value);
  if (/^\d+$/.test(value) && mb >= 1 && mb <= MAX_LOAD_PAGE_CACHE_MB) return mb;
  return `--page-cache-mb must be a whole number of megabytes from 1 to ${MAX_LOAD_PAGE_CACHE_MB} (SQLite's page cache for the load; ${LOAD_PAGE_CACHE_MB} when not given): ${JSON.stringify(value)}`;
}
