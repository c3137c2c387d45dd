import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { User } from '../../service/model/user.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/** `POST /oauth/revoke` (extension): the app's sign-out ends its access token on the service. */
describe.each(DATABASES)('access token revocation on %s', (kind) => {
  let svc: TestService;
  let user: User;

  beforeAll(async () => {
    svc = await startTestService(kind);
    user = await createUser(svc.db, {
      login: 'leaver@example.com',
      password: 'pw-leaver-1',
      firstName: 'Lee',
      lastName: 'Ver',
    });
  });
  afterAll(() => svc.close());

  const freshToken = async (): Promise<Credentials> => {
    const access = await issueAccessToken(svc.db, svc.consumer.key, user.id);
    return { key: access.token, secret: access.secret };
  };

  it('answers 200 "Token revoked", after which the token is refused and another token still works', async () => {
    const token = await freshToken();
    const other = await freshToken();
    expect((await call(svc, `/users/${user.id}`, { token })).statusCode).toBe(200);
    const res = await call(svc, '/oauth/revoke', { method: 'POST', token });
    expect(res.statusCode, res.body).toBe(200);
    expect(parseXml(res.body).status).toMatchObject({ status_code: '200', message: 'Token revoked' });
    const after = await call(svc, `/users/${user.id}`, { token });
    expect(after.statusCode).toBe(401);
    expect(parseXml(after.body).status.message).toBe('Invalid Or Expired Token');
    expect((await call(svc, `/users/${user.id}`, { token: other })).statusCode).toBe(200);
  });

  it('refuses a revocation without an access token, or with a bad signature, and revokes nothing', async () => {
    const token = await freshToken();
    const bare = await call(svc, '/oauth/revoke', { method: 'POST' });
    expect(bare.statusCode).toBe(400);
    expect(parseXml(bare.body).status.message).toBe('Missing Required Access Token');
    const forged = await call(svc, '/oauth/revoke', {
      method: 'POST',
      token: { key: token.key, secret: 'not-the-secret' },
    });
    expect(forged.statusCode).toBe(401);
    expect((await call(svc, `/users/${user.id}`, { token })).statusCode).toBe(200);
  });

  it('another consumer cannot revoke a token it was not issued', async () => {
    const token = await freshToken();
    const intruder = await createConsumer(svc.db, { name: 'Intruder', perSecond: 1000, perDay: 100000 });
    const res = await call(svc, '/oauth/revoke', { method: 'POST', token, consumer: intruder });
    expect(res.statusCode).toBe(401);
    expect((await call(svc, `/users/${user.id}`, { token })).statusCode).toBe(200);
  });

  it('is a POST only: a GET, even one asking for POST by override, revokes nothing', async () => {
    const token = await freshToken();
    expect((await call(svc, '/oauth/revoke', { token })).statusCode).toBe(405);
    expect(
      (await call(svc, '/oauth/revoke', { token, headers: { 'x-http-method-override': 'POST' } })).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect((await call(svc, `/users/${user.id}`, { token })).statusCode).toBe(200);
  });
});
