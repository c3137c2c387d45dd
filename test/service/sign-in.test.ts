import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { revokeAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';
import { postSignIn, readSignInPage } from '../helpers/sign-in-page.ts';

const PASSWORD = 'correct horse battery';

describe.each(DATABASES)('sign-in and users on %s', (kind) => {
  let svc: TestService;
  let userId: string;

  beforeAll(async () => {
    svc = await startTestService(kind);
    userId = (
      await createUser(svc.db, { login: 'ada@example.com', password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' })
    ).id;
    await createUser(svc.db, {
      login: 'grace@example.com',
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'Hopper',
      acceptedTos: true,
    });
  });
  afterAll(() => svc.close());

  const requestToken = async (callback?: string, consumer = svc.consumer) => {
    const res = await call(svc, '/oauth/request_token', {
      method: 'POST',
      form: callback !== undefined ? { oauth_callback: callback } : {},
      consumer,
    });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries(new URLSearchParams(res.body)) as Record<string, string>;
  };
  const loginForm = (token: string, fields: Record<string, string>) =>
    call(svc, '/oauth/login', {
      method: 'POST',
      auth: 'none',
      form: {
        oauth_token: token,
        oauth_consumer_key: svc.consumer.key,
        application_name: 'Test App',
        oauth_callback: '',
        ...fields,
      },
    });
  const accessToken = (token: Record<string, string>, verifier?: string, consumer = svc.consumer) =>
    call(svc, '/oauth/access_token', {
      method: 'POST',
      consumer,
      token: { key: token.oauth_token!, secret: token.oauth_token_secret! },
      form: verifier !== undefined ? { oauth_verifier: verifier } : {},
    });

  it('runs the whole flow as an app and a browser would: loopback callback, access token, current user', async () => {
    const received: string[] = [];
    const listener: Server = createServer((req, res) => {
      received.push(req.url ?? '');
      res.end('signed in, you can close this window');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as { port: number }).port;
    const callback = `http://127.0.0.1:${port}/cb/${Math.random().toString(36).slice(2)}`;
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const servicePort = (svc.app.server.address() as { port: number }).port;
    try {
      const rt = await requestToken(callback);
      expect(rt.oauth_callback_confirmed).toBe('true');
      expect(rt.application_name).toBe('Test App');
      // The browser: open login_url (plus the app's consumer key and name), then post the form.
      const loginUrl = new URL(rt.login_url!.replace(svc.baseUrl, `http://127.0.0.1:${servicePort}`));
      loginUrl.searchParams.set('oauth_consumer_key', svc.consumer.key);
      loginUrl.searchParams.set('application_name', 'Test App');
      const page = await readSignInPage(loginUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain('name="login"');
      expect(page.html).toContain('name="password"');
      expect(page.html).toContain('name="accept_tos"');
      expect(page.hidden.oauth_token).toBe(rt.oauth_token);
      // Posted to the loopback address: the form's action names the service's public base URL.
      const who = { login: 'ada@example.com', password: PASSWORD };
      const posted = await postSignIn(page, who, 'follow', `http://127.0.0.1:${servicePort}/oauth/login`);
      expect(await posted.text()).toBe('signed in, you can close this window');
      expect(received).toHaveLength(1);
      const back = new URL(received[0]!, callback);
      expect(back.searchParams.get('oauth_token')).toBe(rt.oauth_token);
      const verifier = back.searchParams.get('oauth_verifier')!;
      expect(verifier).toMatch(/^[a-z0-9]+$/);
      // The app: exchange for an access token, then read the user.
      const at = await accessToken(rt, verifier);
      expect(at.statusCode, at.body).toBe(200);
      const access = Object.fromEntries(new URLSearchParams(at.body));
      expect(access.user_id).toBe(userId);
      const token = { key: access.oauth_token!, secret: access.oauth_token_secret! };
      const current = parseXml((await call(svc, '/users/current', { token })).body);
      expect(current.resource.link[0]).toMatchObject({
        href: `${svc.baseUrl}/users/${userId}`,
        rel: 'http://schemas.netflix.com/user.current',
      });
      const user = await call(svc, `/users/${userId}`, { token });
      expect(user.statusCode).toBe(200);
      expect(parseXml(user.body).user).toMatchObject({
        user_id: userId,
        first_name: 'Ada',
        last_name: 'Lovelace',
        can_instant_watch: 'true',
      });
    } finally {
      listener.close();
    }
  });

  it('shows the verifier as a PIN when the app asked for oob, and the PIN exchanges for a token', async () => {
    const rt = await requestToken('oob');
    const page = await loginForm(rt.oauth_token!, { login: 'grace@example.com', password: PASSWORD });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('successfully');
    expect(page.body).not.toMatch(/failed/i);
    const pin = /<code id="pin">([^<]+)<\/code>/.exec(page.body)![1]!;
    const at = await accessToken(rt, pin);
    expect(at.statusCode).toBe(200);
    expect(new URLSearchParams(at.body).get('user_id')).toMatch(/^T1/);
  });

  it('names the application by its registered name on the sign-in page and the PIN page, whatever the URL says', async () => {
    const rt = await requestToken('oob');
    const page = await call(svc, '/oauth/login', {
      auth: 'none',
      query: { oauth_token: rt.oauth_token!, application_name: 'Evil Corp' },
    });
    expect(page.body).toContain('<strong>Test App</strong> would like to use your Marquee account');
    expect(page.body).not.toContain('Evil Corp</strong>');
    const done = await loginForm(rt.oauth_token!, {
      login: 'grace@example.com',
      password: PASSWORD,
      application_name: 'Evil Corp',
    });
    expect(done.body).toContain('<h1>Test App is authorized</h1>');
    expect(done.body).toContain('enter this PIN in Test App');
    expect(done.body).not.toMatch(/the application/i);
  });

  it('shows no demo account on the page of a service not started with --demo', async () => {
    const rt = await requestToken('oob');
    const page = await call(svc, '/oauth/login', { auth: 'none', query: { oauth_token: rt.oauth_token! } });
    expect(page.body).not.toContain('id="demo-account"');
  });

  it('an OAuth 1.0 request (no oauth_callback) gets no oauth_callback_confirmed', async () => {
    const rt = await requestToken();
    expect(rt.oauth_callback_confirmed).toBeUndefined();
    expect(rt.login_url).toContain(`oauth_token=${rt.oauth_token}`);
  });

  it('a wrong password re-shows the form with the reason, and approves nothing', async () => {
    const rt = await requestToken('oob');
    const page = await loginForm(rt.oauth_token!, { login: 'ada@example.com', password: 'nope' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p id="error" role="alert">Authorization failed</p>');
    expect((await accessToken(rt, 'whatever')).statusCode).toBe(401);
  });

  it('asks for the terms until the subscriber has accepted them once', async () => {
    const fresh = await createUser(svc.db, {
      login: `new-${kind}@example.com`,
      password: PASSWORD,
      firstName: 'New',
      lastName: 'User',
    });
    const rt = await requestToken('oob');
    const page = await loginForm(rt.oauth_token!, { login: fresh.login, password: PASSWORD });
    expect(page.body).toContain('User must accept terms of use.');
    const ok = await loginForm(rt.oauth_token!, { login: fresh.login, password: PASSWORD, accept_tos: 'checked' });
    expect(ok.body).toContain('successfully');
    const again = await requestToken('oob');
    expect((await loginForm(again.oauth_token!, { login: fresh.login, password: PASSWORD })).body).toContain(
      'successfully',
    );
  });

  it('refuses a missing or wrong verifier, then a reused request token', async () => {
    const rt = await requestToken('oob');
    const pin = /<code id="pin">([^<]+)<\/code>/.exec(
      (await loginForm(rt.oauth_token!, { login: 'grace@example.com', password: PASSWORD })).body,
    )![1]!;
    for (const verifier of [undefined, 'wrong']) {
      const res = await accessToken(rt, verifier);
      expect(res.statusCode).toBe(401);
      expect(parseXml(res.body).status.message).toBe('Invalid Or Expired Token');
    }
    expect((await accessToken(rt, pin)).statusCode).toBe(200);
    const reused = await accessToken(rt, pin);
    expect(reused.statusCode).toBe(401);
    expect(parseXml(reused.body).status.message).toBe('Invalid Or Expired Token');
  });

  it('lets a legacy (OAuth 1.0) consumer exchange an approved token without a verifier', async () => {
    const legacy = await createConsumer(svc.db, { name: 'Old App', legacy: true });
    const rt = await requestToken(undefined, legacy);
    const page = await call(svc, '/oauth/login', {
      method: 'POST',
      auth: 'none',
      form: { oauth_token: rt.oauth_token!, login: 'grace@example.com', password: PASSWORD },
    });
    expect(page.body).toContain('successfully');
    const at = await accessToken(rt, undefined, legacy);
    expect(at.statusCode).toBe(200);
  });

  it('refuses an expired request token on the page and at the exchange', async () => {
    const rt = await requestToken('oob');
    const approved = await requestToken('oob');
    const pin = /<code id="pin">([^<]+)<\/code>/.exec(
      (await loginForm(approved.oauth_token!, { login: 'grace@example.com', password: PASSWORD })).body,
    )![1]!;
    svc.clock.now = Math.floor(Date.now() / 1000) + 15 * 60 + 1;
    try {
      const page = await call(svc, '/oauth/login', { auth: 'none', query: { oauth_token: rt.oauth_token! } });
      expect(page.body).toContain('Expired or bad request token');
      expect(page.body).not.toContain('name="password"');
      // Approved in time, exchanged too late. (The client signs with the service's moved clock.)
      const late = await call(svc, '/oauth/access_token', {
        method: 'POST',
        token: { key: approved.oauth_token!, secret: approved.oauth_token_secret! },
        form: { oauth_verifier: pin },
        timestamp: svc.clock.now,
      });
      expect(late.statusCode).toBe(401);
      expect(parseXml(late.body).status.message).toBe('Invalid Or Expired Token');
    } finally {
      svc.clock.now = undefined;
    }
  });

  it("refuses a revoked access token and another user's uid", async () => {
    const rt = await requestToken('oob');
    const pin = /<code id="pin">([^<]+)<\/code>/.exec(
      (await loginForm(rt.oauth_token!, { login: 'grace@example.com', password: PASSWORD })).body,
    )![1]!;
    const access = Object.fromEntries(new URLSearchParams((await accessToken(rt, pin)).body));
    const token = { key: access.oauth_token!, secret: access.oauth_token_secret! };
    const other = await call(svc, `/users/${userId}`, { token });
    expect(other.statusCode).toBe(403);
    expect(parseXml(other.body).status.message).toBe('User ID access token mismatch');
    await revokeAccessToken(svc.db, token.key);
    const revoked = await call(svc, `/users/${access.user_id}`, { token });
    expect(revoked.statusCode).toBe(401);
    expect(parseXml(revoked.body).status.message).toBe('Invalid Or Expired Token');
  });

  it('a user resource without an access token is 400 Missing Required Access Token', async () => {
    const res = await call(svc, `/users/${userId}`);
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status.message).toBe('Missing Required Access Token');
  });

  it('shows max_maturity_level only at v1.5', async () => {
    const rt = await requestToken('oob');
    const pin = /<code id="pin">([^<]+)<\/code>/.exec(
      (await loginForm(rt.oauth_token!, { login: 'ada@example.com', password: PASSWORD })).body,
    )![1]!;
    const access = Object.fromEntries(new URLSearchParams((await accessToken(rt, pin)).body));
    const token = { key: access.oauth_token!, secret: access.oauth_token_secret! };
    expect((await call(svc, `/users/${userId}`, { token })).body).not.toContain('max_maturity_level');
    expect((await call(svc, `/users/${userId}`, { token, query: { v: '1.5' } })).body).toContain(
      '<max_maturity_level>',
    );
  });
});
