import type { Kysely } from 'kysely';
import { dayWindow } from '../quota.ts';
import type { Database } from '../schema.ts';

/**
 * Deletes day counts from before yesterday: one row per consumer and day, so one statement deletes
 * a day's rows whatever the request rate was (it cannot fall behind). Per-second counts and nonces
 * need no purge: they are held per consumer (PostgreSQL's `quota_seconds`, SQLite's memory) or in
 * time buckets dropped whole (nonce-store.ts, pg-nonce-ring.ts).
 */
export async function purgeDays(kysely: Kysely<Database>, now: number): Promise<void> {
  // Window names compare as text: `d:` + an ISO date.
  await kysely
    .deleteFrom('quota_counters')
    .where('window', '<', dayWindow(now - 86_400))
    .execute();
}
