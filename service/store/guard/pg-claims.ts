import type { StatementRunner } from '../pg-prepared.ts';
import type { Charge } from './types.ts';

/** One request's part of a batch: its nonce (absent for a key-level request) and whose budget it charges. */
export interface PgClaim {
  /** `guard_nonces` partition and the nonce's 128-bit digest (nonce-hash.ts), or null when there is no nonce. */
  slot: number | null;
  digest: string | null;
  consumerKey: string;
  perSecond: number;
}

/**
 * Claims a batch of nonces and charges their consumers in ONE statement: the nonces go in with ON
 * CONFLICT DO NOTHING (RETURNING tells the new ones); per consumer, the fresh requests are charged
 * to its second (one row per consumer, `quota_seconds`) and, those the second's budget lets
 * through, to its day; each request is answered with its own counts (the k-th fresh request of a
 * consumer gets the count before the batch + k), exactly as if they had come one by one. Rows are
 * written in key order, so two nodes' batches never deadlock. A row from a node whose clock lags
 * counts in the newer second (stricter, never looser).
 */
const CLAIM_SQL = `
WITH c AS (
  SELECT * FROM unnest($1::smallint[], $2::uuid[], $3::text[], $4::int[]) WITH ORDINALITY AS c(slot, h, consumer_key, per_second, i)
), n AS (
  INSERT INTO guard_nonces (slot, h) SELECT slot, h FROM c WHERE h IS NOT NULL ORDER BY slot, h
  ON CONFLICT DO NOTHING RETURNING slot, h
), f AS (
  SELECT c.i, c.consumer_key, c.per_second, row_number() OVER (PARTITION BY c.consumer_key ORDER BY c.i) AS rank
  FROM c LEFT JOIN n ON n.slot = c.slot AND n.h = c.h
  WHERE c.h IS NULL OR n.h IS NOT NULL
), g AS (
  SELECT consumer_key, count(*)::int AS k, min(per_second) AS per_second FROM f GROUP BY consumer_key
), s AS (
  INSERT INTO quota_seconds AS q (consumer_key, second, count) SELECT consumer_key, $5::bigint, k FROM g ORDER BY consumer_key
  ON CONFLICT (consumer_key) DO UPDATE SET
    count = CASE WHEN excluded.second > q.second THEN excluded.count ELSE q.count + excluded.count END,
    second = greatest(q.second, excluded.second)
  RETURNING consumer_key, count
), a AS (
  SELECT g.consumer_key, s.count - g.k AS before, greatest(0, least(g.k, g.per_second - (s.count - g.k))) AS allowed
  FROM g JOIN s USING (consumer_key)
), d AS (
  INSERT INTO quota_counters AS q (consumer_key, "window", count) SELECT consumer_key, $6::text, allowed FROM a WHERE allowed > 0 ORDER BY consumer_key
  ON CONFLICT (consumer_key, "window") DO UPDATE SET count = q.count + excluded.count
  RETURNING consumer_key, count
)
SELECT f.i::int AS i, (a.before + f.rank)::int AS second, CASE WHEN f.rank <= a.allowed THEN (d.count - a.allowed + f.rank)::int END AS day
FROM f JOIN a USING (consumer_key) LEFT JOIN d USING (consumer_key)`;

/** Runs one batch: each claim's charge, or null when its nonce was used (a replay). */
export async function claimBatch(
  run: StatementRunner,
  claims: readonly PgClaim[],
  now: number,
  dayWindow: string,
): Promise<Array<Charge | null>> {
  const rows = await run<{ i: number; second: number; day: number | null }>(CLAIM_SQL, [
    claims.map((c) => c.slot),
    claims.map((c) => c.digest),
    claims.map((c) => c.consumerKey),
    claims.map((c) => c.perSecond),
    now,
    dayWindow,
  ]);
  const answers: Array<Charge | null> = claims.map(() => null);
  for (const r of rows)
    answers[Number(r.i) - 1] = { second: Number(r.second), day: r.day === null ? undefined : Number(r.day) };
  return answers;
}
