import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Db } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';

/** A consumer without a practical quota, `count` subscribers with tokens, and titles for their queues. */
export async function soakAccounts(db: Db, count: number, titleCount: number): Promise<{ consumer: Credentials; subscribers: Array<{ id: string; token: Credentials }>; titles: number[] }> {
  const consumer = await createConsumer(db, { name: 'Soak', perSecond: 1_000_000, perDay: 1_000_000_000 });
  const subscribers = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(db, { login: `soak${i}@example.com`, password: 'pw-soak-1', firstName: 'Soak', lastName: String(i) });
    const access = await issueAccessToken(db, consumer.key, user.id);
    subscribers.push({ id: user.id, token: { key: access.token, secret: access.secret } });
  }
  return { consumer, subscribers, titles: await instantMovieIds(db, titleCount) };
}
