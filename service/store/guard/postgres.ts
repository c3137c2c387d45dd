import { sql, type Kysely } from 'kysely';
import { chargeWindows, dayWindow, savedQuotaCount, secondWindow } from '../quota.ts';
import type { Database } from '../schema.ts';
import { purgeOld } from './purge.ts';
import { FLUSH_INTERVAL_MS, type Admission, type RequestGuard } from './types.ts';

/** Purges run this many flush intervals apart (nodes share the tables: no need to hurry). */
const PURGE_EVERY = 10;

/**
 * The PostgreSQL guard: nodes share the nonces and counters, so each request claims its nonce and
 * charges both quota windows in ONE statement (data-modifying CTEs): the nonce insert feeds the
 * second window's upsert, which feeds the day's only while the second is within budget. Replays
 * are refused and counts exact whatever node a request reaches (see store/quota.ts on the row lock).
 */
export function openPostgresGuard(kysely: Kysely<Database>): RequestGuard {
  let ticks = 0;
  const timer = setInterval(() => {
    if (++ticks % PURGE_EVERY === 0) void purgeOld(kysely, 'postgres', Math.floor(Date.now() / 1000)).catch(() => undefined);
  }, FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    async admit(claim, perSecond, now): Promise<Admission> {
      const second = secondWindow(now);
      const day = dayWindow(now);
      const upsert = sql`ON CONFLICT (consumer_key, "window") DO UPDATE SET count = quota_counters.count + 1 RETURNING count`;
      const { rows } = await sql<{ fresh: number; second: number | null; day: number | null }>`
        WITH n AS (
          INSERT INTO nonces (consumer_key, token, timestamp, nonce) VALUES (${claim.consumerKey}, ${claim.token}, ${claim.timestamp}, ${claim.nonce})
          ON CONFLICT DO NOTHING RETURNING 1 AS fresh
        ), s AS (
          INSERT INTO quota_counters (consumer_key, "window", count) SELECT ${claim.consumerKey}, ${second}, 1 FROM n ${upsert}
        ), d AS (
          INSERT INTO quota_counters (consumer_key, "window", count) SELECT ${claim.consumerKey}, ${day}, 1 FROM s WHERE s.count <= ${perSecond} ${upsert}
        )
        SELECT (SELECT count(*) FROM n)::int AS fresh, (SELECT count FROM s) AS second, (SELECT count FROM d) AS day`.execute(kysely);
      const row = rows[0]!;
      if (Number(row.fresh) === 0) return { kind: 'replay' };
      return { kind: 'fresh', charge: { second: Number(row.second), day: row.day === null ? undefined : Number(row.day) } };
    },
    charge: (consumerKey, perSecond, now) => chargeWindows({ kysely, dialect: 'postgres' }, consumerKey, secondWindow(now), dayWindow(now), perSecond),
    count: (consumerKey, window) => savedQuotaCount({ kysely, dialect: 'postgres' }, consumerKey, window),
    flush: async () => undefined,
    async close() {
      clearInterval(timer);
    },
  };
}
