import SQLite from 'better-sqlite3';
import { getTitle } from '../../service/store/catalog.ts';
import type { Db } from '../../service/store/db.ts';
import { claimNonce } from '../../service/store/nonces.ts';
import { chargeWindows, dayWindow, secondWindow } from '../../service/store/quota.ts';
import { searchFor } from '../../service/store/search/index.ts';
import { machineBusyMs } from './report.ts';
import { SEARCH_TERMS } from './scenarios.ts';

export interface MicroResult {
  name: string;
  note: string;
  opsPerSecond: number;
  microsPerOp: number;
  /** Cores the rest of the machine kept busy meanwhile. */
  otherCpu: number;
}

/** Runs `op` back to back for `ms` after a short warm-up; ops per second of wall time. */
async function measure(ms: number, op: (i: number) => unknown): Promise<{ opsPerSecond: number; microsPerOp: number }> {
  // Await only what is a promise: a synchronous op must not pay for a microtask per call.
  const call = async (i: number) => {
    const result = op(i);
    if (result instanceof Promise) await result;
  };
  for (let i = 0; i < 500; i++) await call(i);
  let n = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (let k = 0; k < 100; k++) {
      const result = op(n++);
      if (result instanceof Promise) await result;
    }
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  return { opsPerSecond: (n * 1000) / elapsed, microsPerOp: (elapsed * 1000) / n };
}

/**
 * Kysely (what the service runs) against raw better-sqlite3 prepared statements on a second
 * connection to the same file, for the same SQL: a point query by primary key and the SQLite search
 * (FTS5 count + ranked page of 25).
 */
export async function storageBenchmarks(db: Db, path: string, movieIds: number[], ms: number): Promise<MicroResult[]> {
  const raw = new SQLite(path, { readonly: true });
  const point = raw.prepare('SELECT * FROM titles WHERE id = ?');
  const count = raw.prepare('SELECT count(*) AS n FROM title_search WHERE title_search MATCH ?');
  const page = raw.prepare(
    'SELECT s.rowid AS id FROM title_search s JOIN titles t ON t.id = s.rowid WHERE title_search MATCH ? ' +
      'ORDER BY bm25(title_search), t.average_rating DESC, t.id LIMIT ? OFFSET ?',
  );
  const search = searchFor(db);
  const now = Math.floor(Date.now() / 1000);
  const id = (i: number) => movieIds[i % movieIds.length]!;
  const term = (i: number) => SEARCH_TERMS[i % SEARCH_TERMS.length]!;
  const rows: Array<[string, string, (i: number) => unknown]> = [
    ['point query, Kysely', "selectFrom('titles').selectAll().where('id', '=', id)", (i) => db.kysely.selectFrom('titles').selectAll().where('id', '=', id(i)).executeTakeFirst()],
    ['point query, raw prepared', 'SELECT * FROM titles WHERE id = ?', (i) => point.get(id(i))],
    ['search, Kysely (service code)', 'sqliteSearch.titles(term, 0, 25): FTS5 count + ranked page', (i) => search.titles(term(i), 0, 25)],
    ['search, raw prepared', 'the same two statements, prepared once', (i) => {
      const match = `"${term(i)}"*`;
      const total = (count.get(match) as { n: number }).n;
      return { total, ids: (page.all(match, 25, 0) as Array<{ id: number }>).map((r) => r.id) };
    }],
    ['getTitle(), Kysely (service code)', 'a title with genres, formats, disc flag: 4 queries', (i) => getTitle(db, id(i))],
    // The writes every signed request makes before its handler runs.
    ['nonce claim, Kysely (service code)', 'INSERT … ON CONFLICT DO NOTHING, one per signed request', (i) => claimNonce(db, 'bench', '', now, `n${i}-${Math.random()}`)],
    ['quota charge, Kysely (service code)', 'both windows in one upsert … RETURNING, one per authenticated request', () => chargeWindows(db, 'bench', secondWindow(now), dayWindow(now), Number.MAX_SAFE_INTEGER)],
  ];
  const out: MicroResult[] = [];
  for (const [name, note, op] of rows) {
    const [cpu, machine, wall] = [process.cpuUsage(), machineBusyMs(), performance.now()];
    const result = await measure(ms, op);
    const elapsed = performance.now() - wall;
    const own = process.cpuUsage(cpu);
    const otherCpu = Math.max(0, (machineBusyMs() - machine - (own.user + own.system) / 1000) / elapsed);
    out.push({ name, note, ...result, otherCpu });
  }
  raw.close();
  return out;
}
