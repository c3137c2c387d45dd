import { seedDemoQueues } from './queue.ts';
import { loadCandidates, seedSubscriberActivity } from './subscriber.ts';
import { randomToken } from '../../store/oauth/consumers.ts';
import type { Db } from '../../store/db.ts';
import { getMeta, setMeta } from '../../store/meta.ts';
import { createUser } from '../../store/subscriber/users.ts';

export const DEMO_LOGIN = 'demo';

export interface DemoSubscriber {
  login: string;
  password: string;
}

/**
 * The demo subscriber, so a first launch can sign in on the sign-in page with nothing set up.
 * Its password is random per database and kept in `meta` so the service can print it on every
 * start: this is a local demo account, not a real one. When created it gets two years of rental
 * history, two discs at home and three title lists (data/demo/subscriber.ts), and about forty
 * titles in the instant queue and a few on the disc queue (data/demo/queue.ts).
 */
export async function ensureDemoSubscriber(db: Db, now = Math.floor(Date.now() / 1000)): Promise<DemoSubscriber> {
  const existing = await getMeta(db, 'demo_password');
  if (existing) return { login: DEMO_LOGIN, password: existing };
  const password = randomToken(12);
  const user = await createUser(db, {
    login: DEMO_LOGIN,
    password,
    firstName: 'Demo',
    lastName: 'Subscriber',
    nickname: 'demo',
    acceptedTos: true,
  });
  // Read once for both plans: the whole catalog's films and episodes.
  const catalog = await loadCandidates(db);
  await seedSubscriberActivity(db, user.id, now, catalog);
  // After the history: the queues leave out what was rented.
  await seedDemoQueues(db, user.id, now, catalog);
  await setMeta(db, 'demo_password', password);
  return { login: DEMO_LOGIN, password };
}
