import { randomUUID } from 'node:crypto';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import type { Db } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser, type NewUser } from '../../service/store/subscriber/users.ts';
import type { Credentials } from './oauth-client.ts';
import type { TestService } from './service.ts';

export interface SignedInSubscriber {
  consumer: Consumer;
  userId: string;
  /** The subscriber's access token for `consumer`. */
  token: Credentials;
}

/** A subscriber of a test service, signed in to the service's own test consumer. */
export interface TestSubscriber {
  uid: string;
  token: Credentials;
  /** The secret that signs the subscriber's feed URLs. */
  feedToken: string;
}

/**
 * A fresh subscriber (a login no other test uses; password `pw-123456` unless given) holding an
 * access token for `svc.consumer`: what a test of a subscriber resource starts from.
 */
export async function newSubscriber(svc: TestService, user: Partial<NewUser> = {}): Promise<TestSubscriber> {
  const created = await createUser(svc.db, {
    login: `s-${randomUUID()}@example.com`,
    password: 'pw-123456',
    firstName: 'Test',
    lastName: 'Subscriber',
    ...user,
  });
  const access = await issueAccessToken(svc.db, svc.consumer.key, created.id);
  return { uid: created.id, token: { key: access.token, secret: access.secret }, feedToken: created.feed_token };
}

/**
 * A consumer with budgets no load test reaches and a subscriber already signed in to it: for
 * tests that drive the service hard and are not about quota or sign-in.
 */
export async function unlimitedSubscriber(
  db: Db,
  consumerName: string,
  user: { login: string; password: string; firstName: string; lastName: string },
): Promise<SignedInSubscriber> {
  const consumer = await createConsumer(db, { name: consumerName, perSecond: 1_000_000, perDay: 1_000_000_000 });
  const created = await createUser(db, user);
  const access = await issueAccessToken(db, consumer.key, created.id);
  return { consumer, userId: created.id, token: { key: access.token, secret: access.secret } };
}
