import type { Db } from './db.ts';

/** How long a nonce is remembered: the timestamp window (±300 s) plus a margin. */
const NONCE_TTL_SECONDS = 600;
let lastPurge = 0;

/**
 * Records a nonce for (consumer, token, timestamp) and answers whether it was new. The primary key
 * makes this atomic across service processes sharing one database.
 */
export async function claimNonce(db: Db, consumerKey: string, token: string, timestamp: number, nonce: string): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  if (now - lastPurge > 60) {
    lastPurge = now;
    await db.kysely.deleteFrom('nonces').where('timestamp', '<', now - NONCE_TTL_SECONDS).execute();
  }
  const result = await db.kysely
    .insertInto('nonces')
    .values({ consumer_key: consumerKey, token, timestamp, nonce })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
