import { sql, type Kysely } from 'kysely';
import type { DialectName } from './dialect.ts';
import type { Charge, RequestGuard } from './guard/types.ts';
import type { Database } from './schema.ts';

/** The per-second window holding `now` (Unix seconds). */
export function secondWindow(now: number): string {
  return `s:${now}`;
}

/** The per-day window holding `now`: its UTC date. */
export function dayWindow(now: number): string {
  return `d:${utcDate(now)}`;
}

export type { Charge } from './guard/types.ts';

/** What the quota statements need of a database (a `Db` is one; db.ts is not imported: it opens the guard, which uses these). */
interface Store {
  kysely: Kysely<Database>;
  dialect: DialectName;
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
export async function chargeWindows(db: Store, consumerKey: string, second: string, day: string, perSecond: number): Promise<Charge> {
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

/** A consumer's count in `window` (0 when it made no request there), as the guard holds it. */
export function quotaCount(db: { guard: RequestGuard }, consumerKey: string, window: string): Promise<number> {
  return db.guard.count(consumerKey, window);
}

/** A consumer's count in `window` as saved in the database. */
export async function savedQuotaCount(db: Store, consumerKey: string, window: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('quota_counters')
    .select('count')
    .where('consumer_key', '=', consumerKey)
    .where('window', '=', window)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

function utcDate(now: number): string {
  return new Date(now * 1000).toISOString().slice(0, 10);
}
