import { compiledOnce } from '../compiled-once.ts';
import type { Db } from '../db.ts';
import type { AccessTokensTable } from '../schema.ts';
import { randomToken } from './consumers.ts';


export type AccessToken = AccessTokensTable;

/** Issues a fresh token; 24 characters like the historical tokens, the secret as long for strength. */
export async function issueAccessToken(db: Db, consumerKey: string, userId: string): Promise<AccessToken> {
  const row: AccessToken = {
    token: randomToken(24),
    secret: randomToken(24),
    consumer_key: consumerKey,
    user_id: userId,
    created: Math.floor(Date.now() / 1000),
    revoked: 0,
  };
  await db.kysely.insertInto('access_tokens').values(row).execute();
  return row;
}

/** The token's row, revoked or not (the caller decides what a revoked token means). */
export async function findAccessToken(db: Db, token: string): Promise<AccessToken | undefined> {
  return (await tokenRow(db, token))[0];
}

/** Read by every signed request with a token: compiled once. */
const tokenRow = compiledOnce((k) => k.selectFrom('access_tokens').selectAll().where('token', '=', ''));

/** Returns false when no such token exists. */
export async function revokeAccessToken(db: Db, token: string): Promise<boolean> {
  const result = await db.kysely.updateTable('access_tokens').set({ revoked: 1 }).where('token', '=', token).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A subscriber's access tokens, newest first, revoked ones included. */
export async function listAccessTokens(db: Db, userId: string): Promise<AccessToken[]> {
  return db.kysely.selectFrom('access_tokens').selectAll().where('user_id', '=', userId).orderBy('created', 'desc').orderBy('token').execute();
}

/** Revokes every live token of a subscriber; returns how many. */
export async function revokeUserTokens(db: Db, userId: string): Promise<number> {
  const result = await db.kysely.updateTable('access_tokens').set({ revoked: 1 }).where('user_id', '=', userId).where('revoked', '=', 0).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
