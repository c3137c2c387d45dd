import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { demoCatalog } from '../../service/data/demo/catalog.ts';
import { syntheticCatalog } from '../../service/data/synthetic/catalog.ts';
import { loadCatalog } from '../../service/store/catalog/load.ts';
import { CATALOG_TABLES } from '../../service/store/catalog/tables.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { getMeta } from '../../service/store/meta.ts';
import { searchFor } from '../../service/store/search/index.ts';
import { countTitles } from '../helpers/catalog-picks.ts';
import { openTestDb } from '../helpers/service.ts';

/**
 * A load with the file to itself (one transaction on the rollback journal, secondary indexes built
 * after the rows) against the batch-by-batch path a load takes beside another connection (WAL, a
 * transaction per batch, every index kept up as rows go in: how every load ran before). Both
 * stores get the demo catalog, then a synthetic one on top; they must read the same in every way.
 */
describe('a catalog load alone on its SQLite file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function loaded(besideAnotherConnection: boolean): Promise<{ db: Db; close: () => Promise<void> }> {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-load-'));
    dirs.push(dir);
    const path = join(dir, 'marquee.sqlite');
    const db = await openDb({ sqlitePath: path });
    // A reader holding the file open keeps it in WAL: the load then commits batch by batch.
    const other = besideAnotherConnection ? new SQLite(path) : undefined;
    other?.prepare('SELECT count(*) FROM meta').get();
    const now = inject('catalogNow');
    await loadCatalog(db, demoCatalog(now));
    let journal: unknown;
    const finish = async (inLoad: Db) =>
      void (journal = (await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(inLoad.kysely)).rows[0]
        ?.journal_mode);
    await loadCatalog(db, syntheticCatalog(3_000, now), { finish });
    other?.close();
    // Which path the load took: the rollback journal alone, WAL beside the other connection.
    expect(journal).toBe(besideAnotherConnection ? 'wal' : 'delete');
    return { db, close: () => db.close() };
  }

  it('leaves the schema, rows, full-text index and search answers of the batch-by-batch path', async () => {
    const bulk = await loaded(false);
    const batchwise = await loaded(true);
    try {
      const terms = await termsOf(bulk.db);
      expect(terms.length).toBeGreaterThan(100);
      const [a, b] = await Promise.all([readAll(bulk.db, terms), readAll(batchwise.db, terms)]);
      expect(a.schema.filter((s) => s.type === 'index').length).toBeGreaterThanOrEqual(6);
      expect(a.schema).toEqual(b.schema);
      expect(a.rows).toEqual(b.rows);
      expect(a.rows.titles?.count).toBeGreaterThan(9_000);
      expect(a.fullText).toEqual(b.fullText);
      expect(a.answers).toEqual(b.answers);
      expect(a.meta).toEqual(b.meta);
      expect(a.integrity).toBe('ok');
    } finally {
      await bulk.close();
      await batchwise.close();
    }
  });
});

describe('a catalog load on PostgreSQL', () => {
  it('is one transaction: a source that fails midway leaves the demo catalog and its generation as they were', async () => {
    const { db, drop } = await openTestDb('postgres');
    try {
      const count = () => countTitles(db);
      const before = await count();
      const generation = await getMeta(db, 'catalog_generation');
      function* failing() {
        yield* syntheticCatalog(1_500, inject('catalogNow')); // two batches: the first is written before the source fails
        throw new Error('the source broke');
      }
      await expect(loadCatalog(db, failing())).rejects.toThrow('the source broke');
      expect(await count()).toBe(before);
      expect(await getMeta(db, 'catalog_generation')).toBe(generation);
      expect(await loadCatalog(db, syntheticCatalog(1_500, inject('catalogNow')))).toBe(1_500);
      expect(await count()).toBe(before + 1_500);
      expect((await searchFor(db).people('a', 0, 1)).total).toBeGreaterThan(0);
    } finally {
      await db.close();
      await drop();
    }
  });
});

/** Words and prefixes drawn from the catalog's own titles and people: every 50th of each. */
async function termsOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ text: string }>`SELECT title AS text FROM titles WHERE id % 50 = 0
    UNION ALL SELECT name AS text FROM people WHERE id % 50 = 0`.execute(db.kysely);
  const words = rows.flatMap((r) =>
    r.text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 3),
  );
  return [...new Set(words.flatMap((w) => [w, w.slice(0, 2), w.slice(0, 3)]))].sort();
}

async function readAll(db: Db, terms: string[]) {
  const schema = (
    await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`SELECT type, name, tbl_name, sql
      FROM sqlite_master ORDER BY type, name`.execute(db.kysely)
  ).rows;
  const rows: Record<string, { count: number; sha256: string }> = {};
  for (const table of CATALOG_TABLES) {
    const columns = (await sql.raw<{ name: string }>(`PRAGMA table_info(${table})`).execute(db.kysely)).rows;
    const order = columns.map((_, i) => i + 1).join(', ');
    const all = (await sql.raw<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${order}`).execute(db.kysely))
      .rows;
    rows[table] = { count: all.length, sha256: createHash('sha256').update(JSON.stringify(all)).digest('hex') };
  }
  const fullText: Record<string, number[]> = {};
  for (const term of terms) {
    for (const table of ['title_search', 'person_search']) {
      const { rows: hits } = await sql<{ id: number }>`SELECT rowid AS id FROM ${sql.table(table)}
        WHERE ${sql.table(table)} MATCH ${`"${term}"*`} ORDER BY bm25(${sql.table(table)}), rowid`.execute(db.kysely);
      fullText[`${table} ${term}`] = hits.map((h) => h.id);
    }
  }
  const search = searchFor(db);
  const answers: Record<string, unknown> = {};
  for (const term of terms)
    answers[term] = {
      titles: await search.titles(term, 0, 25),
      autocomplete: await search.autocomplete(term, 10),
      people: await search.people(term, 0, 25),
    };
  const meta = (await sql<{ key: string; value: string }>`SELECT key, value FROM meta ORDER BY key`.execute(db.kysely))
    .rows;
  const integrity = Object.values(
    (await sql<Record<string, string>>`PRAGMA integrity_check`.execute(db.kysely)).rows[0] ?? {},
  )[0];
  return { schema, rows, fullText, answers, meta, integrity };
}
