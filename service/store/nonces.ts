import type { Db } from './db.ts';

/**
 * Records a nonce row for (consumer, token, timestamp) and answers whether it was new: the
 * statement the guard used to run once per request (kept for the storage benchmark's comparison;
 * requests go through `db.guard`).
 */
export async function claimNonce(db: Db, consumerKey: string, token: string, timestamp: number, nonce: string): Promise<boolean> {
  const result = await db.kysely
    .insertInto('nonces')
    .values({ consumer_key: consumerKey, token, timestamp, nonce })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
