import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { TestService } from './helpers/index.ts';

/**
 * Titles of the run's demo catalog picked for what a test needs of them (streaming now, awaiting
 * release, on disc), read from the catalog template every test service starts from, and named
 * as refs on the service a test talks to.
 */

/** `read` over the run's demo catalog template, opened read-only and closed again. */
function readTemplate<T>(read: (db: Database.Database) => T): T {
  const db = new Database(inject('sqliteTemplate'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const movieRefs = (svc: Pick<TestService, 'url'>, rows: ReadonlyArray<{ id: number }>) =>
  rows.map((r) => `${svc.url}/catalog/titles/movies/${r.id}`);

/** Movies whose every instant window starts later (they go to the saved part of the queue), as refs on `svc`. */
export function savedMovieRefs(svc: TestService, count: number): string[] {
  const tomorrow = Math.floor(Date.now() / 1000) + 86400;
  const rows = readTemplate(
    (db) =>
      db
        .prepare(
          `SELECT t.id FROM titles t JOIN availability a ON a.title_id = t.id AND a.format = 'instant'
           WHERE t.type = 'movie' GROUP BY t.id HAVING MIN(a.available_from) > ? ORDER BY t.id LIMIT ?`,
        )
        .all(tomorrow, count) as Array<{ id: number }>,
  );
  if (rows.length < count)
    throw new Error(`the demo catalog has only ${rows.length} movies awaiting release; the test needs ${count}`);
  return movieRefs(svc, rows);
}

/** Which of `refs` (titles of `svc`) the demo catalog also offers on disc (DVD or Blu-ray). */
export function onDisc(refs: readonly string[]): string[] {
  const rows = readTemplate(
    (db) =>
      db.prepare(`SELECT DISTINCT title_id FROM availability WHERE format IN ('DVD', 'Blu-ray')`).all() as Array<{
        title_id: number;
      }>,
  );
  const discs = new Set(rows.map((r) => r.title_id));
  return refs.filter((ref) => discs.has(Number(ref.split('/').pop())));
}

/** Movies that stream now and for at least another month, from the run's demo catalog, as refs on `svc`. */
export function streamingMovieRefs(svc: Pick<TestService, 'url'>, count: number): string[] {
  const now = Math.floor(Date.now() / 1000);
  const rows = readTemplate(
    (db) =>
      db
        .prepare(
          `SELECT DISTINCT t.id FROM titles t JOIN availability a ON a.title_id = t.id
           WHERE t.type = 'movie' AND a.format = 'instant' AND a.available_from < ? AND (a.available_until IS NULL OR a.available_until > ?)
           ORDER BY t.id LIMIT ?`,
        )
        .all(now, now + 31 * 86400, count) as Array<{ id: number }>,
  );
  if (rows.length < count)
    throw new Error(`the demo catalog has only ${rows.length} streaming movies; the test needs ${count}`);
  return movieRefs(svc, rows);
}

/** `count` streaming movies of `svc` other than the titles `watched` (demo ids): to queue beside them. */
export function otherStreamingRefs(svc: Pick<TestService, 'url'>, watched: readonly number[], count = 1): string[] {
  const refs = streamingMovieRefs(svc, watched.length + count);
  return refs.filter((ref) => !watched.some((id) => ref.endsWith(`/${id}`))).slice(0, count);
}
