import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { NONCE_KEEP_SECONDS } from './types.ts';

/** Partitions of `guard_nonces` (migration 010 creates them): a ring reused every SLOTS minutes. */
export const NONCE_SLOTS = 20;
/** Seconds of timestamps one partition holds at a time. */
export const SLOT_SECONDS = 60;
/** How far apart the nodes' clocks may be: a slot is cleared only once no node can still accept its timestamps. */
export const NODE_CLOCK_SKEW_SECONDS = 60;

/** The partition a timestamp's nonce goes to. */
export function nonceSlot(timestamp: number): number {
  const bucket = Math.floor(timestamp / SLOT_SECONDS);
  return ((bucket % NONCE_SLOTS) + NONCE_SLOTS) % NONCE_SLOTS;
}

/**
 * The slots no node can write to now, each with the first minute-bucket it will hold next: every
 * slot outside the minutes a node may still accept (±the timestamp window ± clock skew, 15 of 20).
 */
export function idleSlots(now: number): Array<{ slot: number; nextBucket: number }> {
  const reach = NONCE_KEEP_SECONDS + NODE_CLOCK_SKEW_SECONDS;
  const first = Math.floor((now - reach) / SLOT_SECONDS);
  const last = Math.floor((now + reach) / SLOT_SECONDS);
  const idle = [];
  for (let bucket = last + 1; bucket < first + NONCE_SLOTS; bucket++)
    idle.push({ slot: nonceSlot(bucket * SLOT_SECONDS), nextBucket: bucket });
  return idle;
}

/**
 * Empties each idle slot once before it is reused (TRUNCATE: the whole minute at once, however many
 * nonces it holds, so it cannot fall behind). `guard_nonce_slots` records the bucket a slot was
 * cleared for, so of several nodes only one truncates it; the row lock orders them.
 */
export async function clearIdleSlots(kysely: Kysely<Database>, now: number): Promise<number> {
  let cleared = 0;
  for (const { slot, nextBucket } of idleSlots(now)) {
    const done = await kysely.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('guard_nonce_slots')
        .set({ bucket: nextBucket })
        .where('slot', '=', slot)
        .where('bucket', '<', nextBucket)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return false;
      await sql`TRUNCATE ${sql.table(`guard_nonces_${slot}`)}`.execute(trx);
      return true;
    });
    if (done) cleared++;
  }
  return cleared;
}
