import { sql, type Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.ts';
import type { Db } from '../db.ts';
import type { AccessTokensTable, Database } from '../schema.ts';
import { ReadBatcher } from '../read-batcher.ts';
import { randomToken } from './consumers.ts';
import type { QueueKind } from '../../model/queue.ts';
import type { User } from '../../model/user.ts';

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

/**
 * The token's row and its subscriber's, in one read: a protected request needs both, and on
 * PostgreSQL each read is a round trip. The subscriber is undefined when the row is gone. The same
 * read takes the subscriber's queue versions, held for this request's subscriber object only
 * (`caches.queueVersionsRead`): a repeat queue GET then checks its kept page without a second read.
 */
export async function findAccessTokenAndUser(
  db: Db,
  token: string,
): Promise<{ token: AccessToken; user: User | undefined } | undefined> {
  const row =
    db.prepared?.kysely === db.kysely ? await batchedTokenRead(db).get(token) : (await tokenUserRow(db, token))[0];
  if (!row) return undefined;
  const { t_token, t_secret, t_consumer_key, t_user_id, t_created, t_revoked, q_instant, q_disc, ...user } = row;
  const access: AccessToken = {
    token: t_token,
    secret: t_secret,
    consumer_key: t_consumer_key,
    user_id: t_user_id,
    created: t_created,
    revoked: t_revoked,
  };
  if (user.id === null) return { token: access, user: undefined };
  // `user` is this call's own object (the rest of the row), even when callers share a batch's row.
  db.caches.queueVersionsRead.set(user as User, { instant: Number(q_instant ?? 0), disc: Number(q_disc ?? 0) });
  return { token: access, user: user as User };
}

type TokenUserRow = Awaited<ReturnType<typeof tokenUserRow>>[number];

/**
 * PostgreSQL: the token reads of requests that arrive together go in one statement (read-batcher.ts),
 * one batcher per statement runner (a test's counting runner keeps its own).
 */
function batchedTokenRead(db: Db): ReadBatcher<TokenUserRow> {
  const run = db.prepared!.run;
  let batcher = db.caches.tokenReads.get(run) as ReadBatcher<TokenUserRow> | undefined;
  if (!batcher) {
    batcher = new ReadBatcher(
      (tokens) => tokenUserRows(db, tokens),
      (row) => row.t_token,
    );
    db.caches.tokenReads.set(run, batcher);
  }
  return batcher;
}

/** A queue's version as a scalar subquery on the token's subscriber (null: the queue has no row yet). */
function versionOf(kind: QueueKind) {
  return sql<number | null>`(SELECT version FROM queues WHERE user_id = t.user_id AND kind = ${sql.lit(kind)})`;
}

/** The token's row joined to its subscriber's, with the subscriber's two queue versions. */
function tokenWithUser(k: Kysely<Database>) {
  return k
    .selectFrom('access_tokens as t')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select([
      't.token as t_token',
      't.secret as t_secret',
      't.consumer_key as t_consumer_key',
      't.user_id as t_user_id',
      't.created as t_created',
      't.revoked as t_revoked',
      versionOf('instant').as('q_instant'),
      versionOf('disc').as('q_disc'),
    ]);
}

const tokenUserRow = compiledOnce((k) => tokenWithUser(k).where('t.token', '=', ''));

/** PostgreSQL: many tokens' rows in one statement (an array parameter, so one text and one plan). */
const tokenUserRows = compiledOnce((k) => tokenWithUser(k).where(sql<boolean>`t.token = any(${sql.val([])}::text[])`));

/** Returns false when no such token exists. */
export async function revokeAccessToken(db: Db, token: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('access_tokens')
    .set({ revoked: 1 })
    .where('token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A subscriber's access tokens, newest first, revoked ones included. */
export async function listAccessTokens(db: Db, userId: string): Promise<AccessToken[]> {
  return db.kysely
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created', 'desc')
    .orderBy('token')
    .execute();
}

/** Revokes every live token of a subscriber; returns how many. */
export async function revokeUserTokens(db: Db, userId: string): Promise<number> {
  const result = await db.kysely
    .updateTable('access_tokens')
    .set({ revoked: 1 })
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
