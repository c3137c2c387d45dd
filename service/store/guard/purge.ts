import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';
import { dayWindow, secondWindow } from '../quota.ts';
import type { Database } from '../schema.ts';
import { NONCE_KEEP_SECONDS, PURGE_BATCH } from './types.ts';

/** Past per-second windows are kept this long (a margin for clocks that differ between nodes). */
const SECOND_WINDOWS_KEPT = 60;
/** Saved nonces are kept past the window by this margin (service clocks may differ a little). */
const NONCE_MARGIN_SECONDS = 300;

/**
 * Deletes rows that can no longer matter, at most PURGE_BATCH of each kind per call: nonces whose
 * timestamps the window refuses, second windows older than a minute, day windows before yesterday.
 * Runs on the guard's timer, so a large backlog goes in small steps, never one long delete.
 */
export async function purgeOld(kysely: Kysely<Database>, dialect: DialectName, now: number): Promise<void> {
  const rowId = dialect === 'sqlite' ? sql.raw('rowid') : sql.raw('ctid');
  const oldNonce = now - NONCE_KEEP_SECONDS - NONCE_MARGIN_SECONDS;
  await sql`DELETE FROM nonces WHERE ${rowId} IN (SELECT ${rowId} FROM nonces WHERE timestamp < ${oldNonce} LIMIT ${PURGE_BATCH})`.execute(kysely);
  // Window names compare as text: `s:` + 10 digits (until 2286) and `d:` + an ISO date.
  const oldestSecond = secondWindow(now - SECOND_WINDOWS_KEPT);
  const yesterday = dayWindow(now - 86_400);
  await sql`DELETE FROM quota_counters WHERE ${rowId} IN (SELECT ${rowId} FROM quota_counters
    WHERE ("window" >= 's:' AND "window" < ${oldestSecond}) OR ("window" >= 'd:' AND "window" < ${yesterday}) LIMIT ${PURGE_BATCH})`.execute(kysely);
}
