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

/**
 * Adds one request to a consumer's count in `window` and answers the new count. One statement
 * (INSERT … ON CONFLICT DO UPDATE … RETURNING, SQLite ≥ 3.35 and PostgreSQL), so concurrent
 * requests on any number of service nodes sharing the database never lose a count.
 */
export async function incrementQuota(db: Db, consumerKey: string, window: string): Promise<number> {
  const row = await db.kysely
    .insertInto('quota_counters')
    .values({ consumer_key: consumerKey, window, count: 1 })
    .onConflict((oc) => oc.columns(['consumer_key', 'window']).doUpdateSet((eb) => ({ count: eb('quota_counters.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
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
