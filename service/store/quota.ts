import { sql } from 'kysely';
import type { Db } from './db.ts';

/** Past per-second windows are kept this long (a margin for clocks that differ between nodes). */
const SECOND_WINDOWS_KEPT = 60;
/** Pruning runs at most this often per process (by the service's clock). */
const PRUNE_INTERVAL_SECONDS = 60;
let lastPrune: number | undefined;

/** The per-second window holding `now` (Unix seconds). */
export function secondWindow(now: number): string {
  return `s:${now}`;
}

/** The per-day window holding `now`: its UTC date. */
export function dayWindow(now: number): string {
  return `d:${utcDate(now)}`;
}

export interface Charge {
  /** The consumer's count in the second window, this request included. */
  second: number;
  /** Its count in the day window, this request included; undefined when the second's budget refused it (not counted). */
  day: number | undefined;
}

/**
 * Charges one request to a consumer's second window and, unless that takes the second over
 * `perSecond`, to its day window: one statement either way, which answers both counts. An upsert
 * (ON CONFLICT DO UPDATE … RETURNING, SQLite ≥ 3.35 and PostgreSQL), so concurrent requests on any
 * number of service nodes sharing the database never lose a count.
 *
 * A request refused by the second's budget must cost nothing of the day's, so the day row depends
 * on the second row's outcome, in the same statement:
 * - PostgreSQL: two data-modifying CTEs; the day's insert reads the second's RETURNING, which is
 *   the count after the row lock, so it is exact under any concurrency. (A subquery on the table
 *   would read the statement's snapshot, which a concurrent request may have moved past.)
 * - SQLite: no DML in CTEs, so an INSERT … SELECT of both rows, the day row only while the
 *   second's count before this statement is under the budget. SQLite evaluates a SELECT that reads
 *   the table it inserts into before writing any row, and has one writer at a time, so that count
 *   is exactly the one the second row's upsert starts from.
 */
export async function chargeWindows(db: Db, consumerKey: string, second: string, day: string, perSecond: number): Promise<Charge> {
  const upsert = sql`ON CONFLICT (consumer_key, "window") DO UPDATE SET count = quota_counters.count + 1 RETURNING "window", count`;
  const query =
    db.dialect === 'postgres'
      ? sql<{ window: string; count: number }>`
          WITH s AS (
            INSERT INTO quota_counters (consumer_key, "window", count) VALUES (${consumerKey}, ${second}, 1) ${upsert}
          ), d AS (
            INSERT INTO quota_counters (consumer_key, "window", count) SELECT ${consumerKey}, ${day}, 1 FROM s WHERE s.count <= ${perSecond} ${upsert}
          )
          SELECT "window", count FROM s UNION ALL SELECT "window", count FROM d`
      : sql<{ window: string; count: number }>`
          INSERT INTO quota_counters (consumer_key, "window", count)
          SELECT ${consumerKey}, ${second}, 1
          UNION ALL
          SELECT ${consumerKey}, ${day}, 1
          WHERE coalesce((SELECT count FROM quota_counters WHERE consumer_key = ${consumerKey} AND "window" = ${second}), 0) < ${perSecond}
          ${upsert}`;
  const { rows } = await query.execute(db.kysely);
  const count = (window: string) => {
    const row = rows.find((r) => r.window === window);
    return row ? Number(row.count) : undefined;
  };
  const secondCount = count(second);
  if (secondCount === undefined) throw new Error('quota charge returned no count for the second window');
  return { second: secondCount, day: count(day) };
}

/** A consumer's count in `window` (0 when it made no request there). */
export async function quotaCount(db: Db, consumerKey: string, window: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('quota_counters')
    .select('count')
    .where('consumer_key', '=', consumerKey)
    .where('window', '=', window)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/**
 * Deletes windows that can no longer matter: second windows older than a minute, day windows
 * before yesterday (UTC). Runs at most once a minute per process; `now` is the service's clock.
 */
export async function pruneQuota(db: Db, now: number): Promise<void> {
  if (lastPrune !== undefined && Math.abs(now - lastPrune) < PRUNE_INTERVAL_SECONDS) return;
  lastPrune = now;
  // Window names compare as text: `s:` + 10 digits (until 2286) and `d:` + an ISO date.
  const oldestSecond = secondWindow(now - SECOND_WINDOWS_KEPT);
  const yesterday = dayWindow(now - 86_400);
  await db.kysely
    .deleteFrom('quota_counters')
    .where((eb) =>
      eb.or([
        eb.and([eb('window', '>=', 's:'), eb('window', '<', oldestSecond)]),
        eb.and([eb('window', '>=', 'd:'), eb('window', '<', yesterday)]),
      ]),
    )
    .execute();
}

function utcDate(now: number): string {
  return new Date(now * 1000).toISOString().slice(0, 10);
}
