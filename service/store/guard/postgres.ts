import type { Kysely } from 'kysely';
import type { StatementRunner } from '../pg-prepared.ts';
import { savedQuotaCount } from '../quota.ts';
import type { Database } from '../schema.ts';
import { ClaimBatcher } from './pg-batcher.ts';
import { clearIdleSlots, nonceSlot } from './pg-nonce-ring.ts';
import { sharedNonceDigest } from './nonce-hash.ts';
import { purgeDays } from './purge.ts';
import type { Admission, RequestGuard } from './types.ts';

/** How often a node clears the nonce ring's idle partitions and old day counts. */
const UPKEEP_INTERVAL_MS = 10_000;

/**
 * The PostgreSQL guard: nodes share the nonces and counters. The claims of requests that arrive
 * together go in one statement (pg-batcher.ts, pg-claims.ts) that inserts their nonces into a
 * ring of minute partitions (pg-nonce-ring.ts) and charges both quota windows; replays are refused
 * and counts exact whatever node a request reaches. Nothing is deleted row by row: a minute's
 * nonces go with one TRUNCATE, per-second counts are one row per consumer, day counts one per day.
 */
export async function openPostgresGuard(kysely: Kysely<Database>, run: StatementRunner): Promise<RequestGuard> {
  const batcher = new ClaimBatcher(run);
  /** The service's clock as requests bring it (tests move it), the wall clock before the first. */
  let latest = 0;
  const upkeep = async () => {
    const now = latest || Math.floor(Date.now() / 1000);
    await clearIdleSlots(kysely, now);
    await purgeDays(kysely, now);
  };
  let running: Promise<void> | undefined;
  const upkeepOnce = () => (running ??= upkeep().finally(() => (running = undefined)));
  await upkeepOnce();
  const timer = setInterval(() => void upkeepOnce().catch(() => undefined), UPKEEP_INTERVAL_MS);
  timer.unref();
  return {
    async admit(claim, perSecond, now): Promise<Admission> {
      latest = now;
      const charge = await batcher.submit(
        {
          slot: nonceSlot(claim.timestamp),
          digest: sharedNonceDigest(claim),
          consumerKey: claim.consumerKey,
          perSecond,
        },
        now,
      );
      return charge ? { kind: 'fresh', charge } : { kind: 'replay' };
    },
    async charge(consumerKey, perSecond, now) {
      const charge = await batcher.submit({ slot: null, digest: null, consumerKey, perSecond }, now);
      if (!charge) throw new Error('a charge without a nonce was answered as a replay');
      return charge;
    },
    async count(consumerKey, window) {
      if (!window.startsWith('s:')) return savedQuotaCount({ kysely }, consumerKey, window);
      const row = await kysely
        .selectFrom('quota_seconds')
        .select('count')
        .where('consumer_key', '=', consumerKey)
        .where('second', '=', Number(window.slice(2)))
        .executeTakeFirst();
      return row ? Number(row.count) : 0;
    },
    flush: upkeepOnce,
    held: () => ({ nonces: 0, bytes: 0 }),
    async close() {
      clearInterval(timer);
      await batcher.settled();
    },
  };
}
