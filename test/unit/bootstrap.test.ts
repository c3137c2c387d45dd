import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureDemoData } from '../../service/bootstrap.ts';
import { runCommand } from '../../service/cli/index.ts';
import { syntheticCatalog } from '../../service/data/synthetic/catalog.ts';
import { clearCatalog, loadCatalog } from '../../service/store/catalog/load.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { getMeta } from '../../service/store/meta.ts';
import { searchFor } from '../../service/store/search/index.ts';
import { countTitles } from '../helpers/catalog-picks.ts';

/** What a start finds in a store that is not fresh; the demo load itself is covered by process.test.ts. */
describe('first-start bookkeeping on SQLite', () => {
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-bootstrap-'));
    db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const titleCount = () => countTitles(db);

  it('clearCatalog empties the catalog and its (contentless FTS5) search index, so a load cut short can be redone', async () => {
    await loadCatalog(db, syntheticCatalog(50, 1_700_000_000));
    expect((await searchFor(db).titles('the', 0, 100)).total).toBeGreaterThan(0);
    await clearCatalog(db);
    expect(await titleCount()).toBe(0);
    expect((await searchFor(db).titles('the', 0, 100)).total).toBe(0);
    await loadCatalog(db, syntheticCatalog(50, 1_700_000_000));
    expect(await titleCount()).toBe(50);
  });

  it('a synthetic catalog seeded into a fresh store is kept by the first start, not taken for an interrupted demo load', async () => {
    expect(await runCommand(db, ['seed', '--synthetic', '50'])).toBe(0);
    expect(await getMeta(db, 'catalog')).toBe('synthetic');
    const { consumer } = await ensureDemoData(db, 1_700_000_000);
    expect(await titleCount()).toBe(50);
    expect((await ensureDemoData(db, 1_700_000_000)).consumer.key).toBe(consumer.key);
  });

  it('a second synthetic seed is refused before it collides with the first', async () => {
    expect(await runCommand(db, ['seed', '--synthetic', '50'])).toBe(0);
    expect(await runCommand(db, ['seed', '--synthetic', '50'])).toBe(1);
    expect(await titleCount()).toBe(50);
  });

  const pragma = async (kysely: Db['kysely'], name: string) =>
    Object.values((await sql.raw<Record<string, unknown>>(`PRAGMA ${name}`).execute(kysely)).rows[0]!)[0];
  const settings = (kysely: Db['kysely']) =>
    Promise.all(['cache_size', 'wal_autocheckpoint', 'journal_mode'].map((name) => pragma(kysely, name)));

  it('a load alone on the file runs on the rollback journal with a wide page cache, and puts both back after', async () => {
    const before = await settings(db.kysely);
    let during: unknown[] = [];
    const finish = async (inLoad: Db) => void (during = await settings(inLoad.kysely));
    await loadCatalog(db, syntheticCatalog(20, 1_700_000_000), { finish });
    expect(before[2]).toBe('wal');
    expect(during).toEqual([-262144, 16384, 'delete']);
    expect(await settings(db.kysely)).toEqual(before);
  });

  it('a load whose source fails midway leaves no title, the generation and the settings as they were', async () => {
    const before = await settings(db.kysely);
    const generation = await getMeta(db, 'catalog_generation');
    function* failing() {
      yield* syntheticCatalog(1_500, 1_700_000_000); // two batches: the first is written before the source fails
      throw new Error('the source broke');
    }
    await expect(loadCatalog(db, failing())).rejects.toThrow('the source broke');
    expect(await titleCount()).toBe(0);
    expect(await getMeta(db, 'catalog_generation')).toBe(generation);
    expect(await settings(db.kysely)).toEqual(before);
    // Nothing of it was left behind to collide with: the same load runs again.
    expect(await loadCatalog(db, syntheticCatalog(1_500, 1_700_000_000))).toBe(1_500);
  });
});
