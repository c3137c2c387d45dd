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

  const titleCount = async () =>
    Number(
      (
        await db.kysely
          .selectFrom('titles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

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

  it('a load widens SQLite’s page cache and checkpoint only while it runs, even when a batch fails', async () => {
    const pragma = async (name: string) =>
      Object.values((await sql.raw<Record<string, number>>(`PRAGMA ${name}`).execute(db.kysely)).rows[0]!)[0];
    const before = [await pragma('cache_size'), await pragma('wal_autocheckpoint')];
    let widened: unknown[] = [];
    async function* batches() {
      yield* syntheticCatalog(20, 1_700_000_000);
      widened = [await pragma('cache_size'), await pragma('wal_autocheckpoint')];
      throw new Error('the source broke');
    }
    await expect(loadCatalog(db, batches())).rejects.toThrow('the source broke');
    expect(widened).toEqual([-262144, 16384]);
    expect([await pragma('cache_size'), await pragma('wal_autocheckpoint')]).toEqual(before);
  });
});
