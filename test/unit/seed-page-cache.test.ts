import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawNode, sql, type KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { runCommand } from '../../service/cli/index.ts';
import { readySqliteForLoad } from '../../service/store/catalog/sqlite-bulk.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { getMeta } from '../../service/store/meta.ts';
import { countTitles } from '../helpers/catalog-picks.ts';

/** `seed --synthetic N --page-cache-mb M` and the load's page cache behind it, on a temporary SQLite store. */
describe("the seed's page cache", () => {
  let dir: string;
  let db: Db;
  let err: MockInstance<typeof console.error>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-seed-cache-'));
    db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    err = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = async (pragma: string) =>
    Object.values((await sql.raw<Record<string, unknown>>(`PRAGMA ${pragma}`).execute(db.kysely)).rows[0] ?? {})[0];

  it('loads with the page cache it is given, then gives the connection its own back', async () => {
    await sql.raw('PRAGMA cache_size = -3000').execute(db.kysely);
    const { seen, pragmas } = recordingPragmas(db);
    expect(await runCommand(seen, ['seed', '--synthetic', '10', '--page-cache-mb', '4'])).toBe(0);
    expect(pragmas).toContain('PRAGMA cache_size = -4096');
    expect(await countTitles(db)).toBe(10);
    expect(await read('cache_size')).toBe(-3000);
    expect(await read('journal_mode')).toBe('wal');
  });

  it('loads with 256 MB when none is given', async () => {
    const { seen, pragmas } = recordingPragmas(db);
    expect(await runCommand(seen, ['seed', '--synthetic', '10'])).toBe(0);
    expect(pragmas).toContain('PRAGMA cache_size = -262144');
    expect(await countTitles(db)).toBe(10);
  });

  it.each(['0', '-1', '1.5', '1e3', 'abc', '8MB', '', '65537'])(
    'refuses --page-cache-mb %j in words and loads nothing',
    async (value) => {
      expect(await runCommand(db, ['seed', '--synthetic', '10', '--page-cache-mb', value])).toBe(1);
      expect(err).toHaveBeenCalledWith(
        `--page-cache-mb must be a whole number of megabytes from 1 to 65536 (SQLite's page cache for the load; 256 when not given): ${JSON.stringify(value)}`,
      );
      expect(await countTitles(db)).toBe(0);
      expect(await getMeta(db, 'synthetic')).toBeUndefined();
    },
  );

  it('refuses a page cache out of range before changing the connection', async () => {
    const before = { cache: await read('cache_size'), journal: await read('journal_mode') };
    for (const mb of [0, 1.5, Number.NaN, 65_537])
      await expect(readySqliteForLoad(db.kysely, mb)).rejects.toThrow(RangeError);
    expect({ cache: await read('cache_size'), journal: await read('journal_mode') }).toEqual(before);
  });
});

/** The store as the command sees it, and every PRAGMA its connection is sent, in order. */
function recordingPragmas(db: Db): { seen: Db; pragmas: string[] } {
  const pragmas: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const text = RawNode.is(node) ? node.sqlFragments.join('?') : '';
      if (text.startsWith('PRAGMA')) pragmas.push(text);
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return { seen: { ...db, kysely: db.kysely.withPlugin(plugin) }, pragmas };
}
