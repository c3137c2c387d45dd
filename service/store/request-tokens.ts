import type { Db } from './db.ts';
import { randomToken } from './consumers.ts';
import type { RequestTokensTable } from './schema.ts';

export type RequestToken = RequestTokensTable;

/** Request tokens are short-lived (CONTRACT.md §5: 15 minutes). */
export const REQUEST_TOKEN_TTL_SECONDS = 15 * 60;

export async function createRequestToken(db: Db, consumerKey: string, callback: string | null, now: number): Promise<RequestToken> {
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

/** The subscriber approved the token on the sign-in page. */
export async function approveRequestToken(db: Db, token: string, userId: string): Promise<string> {
  const verifier = randomToken(8);
  await db.kysely.updateTable('request_tokens').set({ user_id: userId, verifier }).where('token', '=', token).execute();
  return verifier;
}

/** Marks the token used; false when another exchange got there first. */
export async function consumeRequestToken(db: Db, token: string): Promise<boolean> {
  const result = await db.kysely.updateTable('request_tokens').set({ used: 1 }).where('token', '=', token).where('used', '=', 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
