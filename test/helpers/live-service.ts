import { createUser } from '../../service/store/subscriber/users.ts';
import type { User } from '../../service/model/user.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import type { Credentials } from './oauth-client.ts';
import { freePort } from './postgres-server.ts';
import { startTestService, type DatabaseKind, type TestService } from './service.ts';

export interface LiveService extends TestService {
  /** http://127.0.0.1:<port>: ids, links and the sign-in page all use it. */
  url: string;
  subscriber: User;
  password: string;
}

/**
 * The real service on loopback HTTP with the demo catalog and one subscriber, for the app's
 * core to talk to exactly as it would in production.
 */
export async function startLiveService(kind: DatabaseKind = 'sqlite'): Promise<LiveService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const svc = await startTestService(kind, url);
  await svc.app.listen({ port, host: '127.0.0.1' });
  const password = 'app-test-password';
  const subscriber = await createUser(svc.db, {
    login: 'app@example.com',
    password,
    firstName: 'Avery',
    lastName: 'App',
    acceptedTos: true,
  });
  return { ...svc, url, subscriber, password };
}

/** A fresh access token of the live service's subscriber, for its test consumer. */
export async function subscriberToken(svc: LiveService): Promise<Credentials> {
  const issued = await issueAccessToken(svc.db, svc.consumer.key, svc.subscriber.id);
  return { key: issued.token, secret: issued.secret };
}
