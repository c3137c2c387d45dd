import type { Db } from '../db.ts';
import { randomToken } from './consumers.ts';
import type { RequestTokensTable } from '../schema.ts';

export type RequestToken = RequestTokensTable;

/** Request tokens are short-lived (CONTRACT.md §5: 15 minutes). */
export const REQUEST_TOKEN_TTL_SECONDS = 15 * 60;

/** A new request token; expired ones are purged on the way, so abandoned sign-ins do not pile up. */
export async function createRequestToken(
  db: Db,
  consumerKey: string,
  callback: string | null,
  now: number,
): Promise<RequestToken> {
  await purgeExpiredRequestTokens(db, now);
  const row: RequestToken = {
    token: randomToken(24),
    secret: randomToken(12),
    consumer_key: consumerKey,
    callback,
    user_id: null,
    verifier: null,
    created: now,
    used: 0,
  };
  await db.kysely.insertInto('request_tokens').values(row).execute();
  return row;
}

/** A request token that may still be used: exists, unused, not expired. */
export async function findLiveRequestToken(db: Db, token: string, now: number): Promise<RequestToken | undefined> {
  return db.kysely
    .selectFrom('request_tokens')
    .selectAll()
    .where('token', '=', token)
    .where('used', '=', 0)
    .where('created', '>', now - REQUEST_TOKEN_TTL_SECONDS)
    .executeTakeFirst();
}

/**
 * The subscriber approved the token on the sign-in page: its verifier, or undefined when the token
 * was approved already (by this subscriber or another), so a second approval cannot replace the
 * first one's PIN or bind the token to someone else.
 */
export async function approveRequestToken(db: Db, token: string, userId: string): Promise<string | undefined> {
  const verifier = randomToken(8);
  const result = await db.kysely
    .updateTable('request_tokens')
    .set({ user_id: userId, verifier })
    .where('token', '=', token)
    .where('user_id', 'is', null)
    .where('used', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? verifier : undefined;
}

/** Ends a request token before its time (too many wrong passwords on its page). */
export async function burnRequestToken(db: Db, token: string): Promise<void> {
  await db.kysely.updateTable('request_tokens').set({ used: 1 }).where('token', '=', token).execute();
}

/** Deletes request tokens past their 15 minutes (used or not): nothing can use them any more. */
export async function purgeExpiredRequestTokens(db: Db, now: number): Promise<number> {
  const result = await db.kysely
    .deleteFrom('request_tokens')
    .where('created', '<=', now - REQUEST_TOKEN_TTL_SECONDS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks the token used; false when another exchange got there first. */
export async function consumeRequestToken(db: Db, token: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('request_tokens')
    .set({ used: 1 })
    .where('token', '=', token)
    .where('used', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
