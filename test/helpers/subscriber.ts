import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import type { Db } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { Credentials } from './oauth-client.ts';

export interface SignedInSubscriber {
  consumer: Consumer;
  userId: string;
  /** The subscriber's access token for `consumer`. */
  token: Credentials;
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
