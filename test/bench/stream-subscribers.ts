import type { Db } from '../../service/store/db.ts';
import { createConsumer, randomToken } from '../../service/store/oauth/consumers.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { Consumer } from './scenarios.ts';

/** A subscriber and the access token it opens streams with (issued to `consumer`). */
export interface StreamSubscriber {
  userId: string;
  consumer: Consumer;
  token: Consumer;
}

/** Rows written per INSERT (well under SQLite's and PostgreSQL's parameter limits). */
const BATCH = 200;

/** An application registered with budgets no bench reaches: opening a stream is charged, never refused. */
export async function unlimitedConsumer(db: Db, name: string): Promise<Consumer> {
  const c = await createConsumer(db, { name, perSecond: 1_000_000_000, perDay: 1_000_000_000 });
  return { key: c.key, secret: c.secret };
}

/**
 * `count` subscribers, the `i`th with a token of `consumerOf(i)`. One is registered as the service
 * does (its password hashed); the rest copy its row with ids of their own, since hashing a password
 * for each of thousands would take minutes and nothing here signs in with one.
 */
export async function streamSubscribers(
  db: Db,
  label: string,
  count: number,
  consumerOf: (i: number) => Consumer,
): Promise<StreamSubscriber[]> {
  const first = await createUser(db, {
    login: `${label}-0@example.com`,
    password: `${label}-password`,
    firstName: 'Stream',
    lastName: label,
    acceptedTos: true,
  });
  const users = [first];
  for (let i = 1; i < count; i++)
    users.push({
      ...first,
      id: `T1${randomToken(22)}`,
      login: `${label}-${i}@example.com`,
      feed_token: randomToken(24),
    });
  const created = Math.floor(Date.now() / 1000);
  const tokens = users.map((u, i) => ({
    token: randomToken(24),
    secret: randomToken(24),
    consumer_key: consumerOf(i).key,
    user_id: u.id,
    created,
    revoked: 0,
  }));
  for (let i = 1; i < users.length; i += BATCH)
    await db.kysely
      .insertInto('users')
      .values(users.slice(i, i + BATCH))
      .execute();
  for (let i = 0; i < tokens.length; i += BATCH)
    await db.kysely
      .insertInto('access_tokens')
      .values(tokens.slice(i, i + BATCH))
      .execute();
  return users.map((u, i) => ({
    userId: u.id,
    consumer: consumerOf(i),
    token: { key: tokens[i]!.token, secret: tokens[i]!.secret },
  }));
}
