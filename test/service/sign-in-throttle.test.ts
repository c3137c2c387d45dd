import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { createRequestToken, REQUEST_TOKEN_TTL_SECONDS } from '../../service/store/oauth/request-tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

const PASSWORD = 'pw-throttle-1';

/** Password guessing on the sign-in page is slowed and capped; the token endpoints pay the quota. */
describe.each(DATABASES)('sign-in throttling and token-endpoint quota on %s', (kind) => {
  let svc: TestService;
  let users = 0;

  beforeAll(async () => {
    svc = await startTestService(kind);
  });
  afterAll(() => svc.close());

  const newUser = async () =>
    (
      await createUser(svc.db, {
        login: `t${users++}@throttle.test`,
        password: PASSWORD,
        firstName: 'T',
        lastName: 'U',
        acceptedTos: true,
      })
    ).login;
  const requestToken = async () => {
    const res = await call(svc, '/oauth/request_token', { method: 'POST', form: { oauth_callback: 'oob' } });
    return new URLSearchParams(res.body).get('oauth_token')!;
  };
  const attempt = (token: string, login: string, password: string) =>
    call(svc, '/oauth/login', { method: 'POST', auth: 'none', form: { oauth_token: token, login, password } });

  it('after three wrong passwords an account must wait, growing each time; even the right password is refused meanwhile', async () => {
    const login = await newUser();
    const start = Math.floor(Date.now() / 1000);
    svc.clock.now = start;
    try {
      for (let i = 0; i < 3; i++)
        expect((await attempt(await requestToken(), login, 'wrong')).body).toContain('Authorization failed');
      // From the third failure on, each one makes the account wait: 1 s, then 2 s, doubling.
      const refused = await attempt(await requestToken(), login, PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toContain('Too many failed sign-in attempts for this account. Try again in 1 seconds.');
      expect(refused.body).not.toContain('id="pin"');
      svc.clock.now = start + 1;
      expect((await attempt(await requestToken(), login, 'wrong')).body).toContain('Authorization failed');
      expect((await attempt(await requestToken(), login, PASSWORD)).headers['retry-after']).toBe('2');
      svc.clock.now = start + 3;
      const ok = await attempt(await requestToken(), login, PASSWORD);
      expect(ok.body).toContain('id="pin"');
      // Success forgets the failures.
      expect((await attempt(await requestToken(), login, 'wrong')).statusCode).toBe(200);
      expect((await attempt(await requestToken(), login, PASSWORD)).body).toContain('id="pin"');
    } finally {
      svc.clock.now = undefined;
    }
  });

  it('a request token survives nine wrong passwords; the tenth ends it, and the right one is then refused', async () => {
    const login = await newUser();
    const token = await requestToken();
    // Different unknown logins, so no account wait interferes: the cap is the token's.
    for (let i = 0; i < 9; i++)
      expect((await attempt(token, `nobody${i}@throttle.test`, 'x')).body).toContain('Authorization failed');
    const ended = await attempt(token, 'nobody9@throttle.test', 'x');
    expect(ended.body).toContain('Too many wrong passwords for this sign-in link');
    const late = await attempt(token, login, PASSWORD);
    expect(late.body).toContain('Expired or bad request token');
    expect(late.body).not.toContain('id="pin"');
  });

  it('the token endpoints are charged to the quota: a consumer with a zero budget gets 403', async () => {
    const requestToken = (consumer: Credentials) =>
      call(svc, '/oauth/request_token', { method: 'POST', consumer, form: { oauth_callback: 'oob' } });
    const suspended = await createConsumer(svc.db, { name: 'Suspended', perSecond: 0, perDay: 0 });
    const res = await requestToken(suspended);
    expect(res.statusCode).toBe(403);
    expect(parseXml(res.body).status.message).toBe('Over queries per second limit');
    const oneADay = await createConsumer(svc.db, { name: 'One a day', perSecond: 100, perDay: 1 });
    expect((await requestToken(oneADay)).statusCode).toBe(200);
    const second = await requestToken(oneADay);
    expect(second.statusCode).toBe(403);
    expect(parseXml(second.body).status.message).toBe('Over queries per day limit');
  });

  it('expired request tokens are purged when new ones are made', async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = await createRequestToken(svc.db, svc.consumer.key, 'oob', now - REQUEST_TOKEN_TTL_SECONDS - 1);
    const live = await createRequestToken(svc.db, svc.consumer.key, 'oob', now - 60);
    await requestToken();
    const left = await svc.db.kysely
      .selectFrom('request_tokens')
      .select('token')
      .where('token', 'in', [old.token, live.token])
      .execute();
    expect(left.map((r) => r.token)).toEqual([live.token]);
  });
});
