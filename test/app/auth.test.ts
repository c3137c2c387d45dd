import { urlOf } from '../helpers/fetch-input.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  AuthSession,
  SignIn,
  authErrorFromResponse,
  parseForm,
  startLoopbackCallback,
  type OAuthTokens,
  type PendingSignIn,
} from '../../electron/core/auth/index.ts';
import { ensureDefaultProfile, openNodeSettings, type SettingsStore } from '../../electron/core/settings/index.ts';
import { createTransport } from '../../electron/core/transport/index.ts';
import { startLiveService, type LiveService } from '../helpers/live-service.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { postSignIn, readSignInPage } from '../helpers/sign-in-page.ts';

let svc: LiveService;
let target: { baseUrl: string; consumerKey: string; consumerSecret: string };

beforeAll(async () => {
  svc = await startLiveService();
  target = { baseUrl: svc.url, consumerKey: svc.consumer.key, consumerSecret: svc.consumer.secret };
});
afterAll(() => svc.close());

/**
 * The test plays the system browser: opens the service's sign-in page, reads its hidden fields,
 * posts the form with the subscriber's login, password and the terms box. `redirect: 'follow'`
 * takes it on to the loopback callback, as a browser would.
 */
async function browse(
  loginUrl: string,
  redirect: 'follow' | 'manual' = 'follow',
  password = svc.password,
): Promise<Response> {
  const page = await readSignInPage(loginUrl);
  expect(page.status).toBe(200);
  expect(page.html).toContain('name="password"');
  expect(page.hidden.oauth_token).toBe(new URL(loginUrl).searchParams.get('oauth_token'));
  return postSignIn(page, { login: svc.subscriber.login, password }, redirect);
}

/** The access token works: GET /users/current signed with oauth-1.0a (not our signer). */
async function currentUser(tokens: OAuthTokens): Promise<Response> {
  const url = `${svc.url}/users/current`;
  const consumer = { key: svc.consumer.key, secret: svc.consumer.secret };
  return fetch(url, {
    headers: { authorization: authHeader(consumer, 'GET', url, {}, { key: tokens.token, secret: tokens.secret }) },
  });
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe("sign-in through the service's own page (loopback callback)", () => {
  let dir: string;
  let settings: SettingsStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-auth-'));
    settings = openNodeSettings({ dir, onWarning: () => {} });
    ensureDefaultProfile(settings, target);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the whole flow: request token, browser, loopback callback, access token that works', async () => {
    const opened: string[] = [];
    const pendings: Array<PendingSignIn | null> = [];
    let callbackPage = '';
    const session = new AuthSession(settings, {
      onPending: (p) => pendings.push(p),
      openExternal: async (url) => {
        opened.push(url);
        const res = await browse(url);
        expect(res.status).toBe(200);
        callbackPage = await res.text();
      },
    });
    const tokens = await session.signIn();

    expect(tokens.userId).toBe(svc.subscriber.id);
    expect(tokens.token).toMatch(/\S/);
    const current = await currentUser(tokens);
    expect(current.status).toBe(200);
    expect(await current.text()).toContain(`/users/${svc.subscriber.id}`);

    // The page opened is the service's login_url plus the consumer key and application name.
    expect(opened).toHaveLength(1);
    const login = new URL(opened[0]!);
    expect(`${login.origin}${login.pathname}`).toBe(`${svc.url}/oauth/login`);
    expect(login.searchParams.get('oauth_consumer_key')).toBe(svc.consumer.key);
    expect(login.searchParams.get('application_name')).toBe('Test App');
    expect(login.searchParams.get('oauth_token')).toMatch(/\S/);
    expect(callbackPage).toMatch(/close this window/i);

    // Pending while the browser was out; cleared after; the listener is gone.
    expect(pendings).toHaveLength(2);
    const pending = pendings[0]!;
    expect(pending).toMatchObject({ mode: 'loopback', fellBack: false, browserOpened: true, loginUrl: opened[0] });
    expect(pending.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/marquee\/oauth-callback\/[\w-]{20,}$/);
    expect(pendings[1]).toBeNull();
    expect(session.pending).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(await refused(pending.callbackUrl!)).toBe(true);

    // Stored for the profile, encrypted, and what the transport signs with.
    expect(session.isSignedIn()).toBe(true);
    expect(session.signingContext()).toEqual({
      baseUrl: svc.url,
      consumer: { key: svc.consumer.key, secret: svc.consumer.secret },
      token: { key: tokens.token, secret: tokens.secret },
    });
    expect(readFileSync(settings.path, 'utf8')).not.toContain(tokens.secret);
    expect(openNodeSettings({ dir }).getTokens('embedded')).toEqual(tokens);
  });

  it('ignores a callback with the wrong token (400 page) and completes with the right one', async () => {
    const statuses: number[] = [];
    const session = new AuthSession(settings, {
      openExternal: async (url) => {
        const posted = await browse(url, 'manual');
        expect(posted.status).toBe(302);
        const good = new URL(posted.headers.get('location')!);
        const wrong = new URL(good);
        wrong.searchParams.set('oauth_token', 'not-the-pending-token');
        const noVerifier = new URL(good);
        noVerifier.searchParams.delete('oauth_verifier');
        const otherPath = new URL(good);
        otherPath.pathname = '/somewhere/else';
        for (const u of [wrong, noVerifier, otherPath]) {
          const res = await fetch(u);
          statuses.push(res.status);
          if (u === wrong) expect(await res.text()).toMatch(/does not match/);
        }
        expect(session.pending).not.toBeNull(); // still waiting
        const res = await fetch(good);
        statuses.push(res.status);
        expect(await res.text()).toMatch(/close this window/i);
      },
    });
    const tokens = await session.signIn();
    expect(statuses).toEqual([400, 400, 404, 200]);
    expect((await currentUser(tokens)).status).toBe(200);
  });

  it('signs out: the tokens are forgotten, on disk too', async () => {
    const session = new AuthSession(settings, { openExternal: async (url) => void (await browse(url)) });
    const tokens = await session.signIn();
    expect(session.isSignedIn()).toBe(true);
    session.signOut();
    expect(session.isSignedIn()).toBe(false);
    expect(session.tokens()).toBeNull();
    expect(session.signingContext()!.token).toBeNull();
    expect(JSON.parse(readFileSync(settings.path, 'utf8')).tokens).toEqual({});
    expect(openNodeSettings({ dir }).getTokens('embedded')).toBeNull();
    expect(tokens.token).toMatch(/\S/);
  });

  it('times out cleanly: typed error, listener closed, pending cleared', async () => {
    let pending: PendingSignIn | null = null;
    const pendings: Array<PendingSignIn | null> = [];
    const session = new AuthSession(settings, {
      timeoutMs: 400,
      onPending: (p) => pendings.push(p),
      openExternal: () => {
        pending = session.pending;
      }, // the user never signs in
    });
    const started = Date.now();
    const error = await session.signIn().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('timeout');
    expect((error as AuthError).appError.kind).toBe('auth');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(session.pending).toBeNull();
    expect(pendings.at(-1)).toBeNull();
    expect(session.isSignedIn()).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(await refused((pending as PendingSignIn | null)!.callbackUrl!)).toBe(true);
    // Nothing left to complete.
    await expect(session.completeWithPin('abc')).rejects.toMatchObject({ code: 'no_pending' });
  });

  it('falls back to the PIN when the loopback listener cannot bind', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      let pin = '';
      let pageWhenPin = '';
      const session = new AuthSession(settings, {
        loopbackPort: taken, // EADDRINUSE
        openExternal: async (url) => {
          const res = await browse(url);
          pageWhenPin = await res.text();
          pin = /<code id="pin">([^<]+)<\/code>/.exec(pageWhenPin)![1]!;
        },
      });
      const signingIn = session.signIn();
      await expect.poll(() => pin, { timeout: 10_000 }).not.toBe('');
      expect(pageWhenPin).toContain('successfully');
      expect(session.pending).toMatchObject({ mode: 'oob', fellBack: true, callbackUrl: null });

      // A mistyped PIN is refused and the sign-in keeps waiting.
      await expect(session.completeWithPin('wrong-pin')).rejects.toMatchObject({ code: 'rejected' });
      expect(session.pending).not.toBeNull();

      const viaPin = await session.completeWithPin(` ${pin} `);
      const tokens = await signingIn;
      expect(viaPin).toEqual(tokens);
      expect(session.pending).toBeNull();
      expect(session.tokens()).toEqual(tokens);
      expect((await currentUser(tokens)).status).toBe(200);
    } finally {
      blocker.close();
    }
  });

  it('uses the PIN when asked to, and a listener on an address it cannot bind falls back too', async () => {
    let pin = '';
    const flow = new SignIn({
      loopbackHost: '192.0.2.1', // TEST-NET-1: not an address of this machine (EADDRNOTAVAIL)
      openExternal: async (url) => {
        pin = /<code id="pin">([^<]+)<\/code>/.exec(await (await browse(url)).text())![1]!;
      },
    });
    const signingIn = flow.start(target);
    await expect.poll(() => pin, { timeout: 10_000 }).not.toBe('');
    expect(flow.pending).toMatchObject({ mode: 'oob', fellBack: true });
    await flow.completeWithPin(pin);
    expect((await currentUser(await signingIn)).status).toBe(200);

    pin = '';
    const asked = new SignIn({
      openExternal: async (url) =>
        void (pin = /<code id="pin">([^<]+)<\/code>/.exec(await (await browse(url)).text())![1]!),
    });
    const oob = asked.start(target, { mode: 'oob' });
    await expect.poll(() => pin, { timeout: 10_000 }).not.toBe('');
    expect(asked.pending).toMatchObject({ mode: 'oob', fellBack: false });
    await asked.completeWithPin(pin);
    expect((await oob).userId).toBe(svc.subscriber.id);
  });

  it('rejects a PIN when no PIN sign-in waits, and a sign-in for no profile', async () => {
    const flow = new SignIn({ openExternal: () => {} });
    await expect(flow.completeWithPin('123')).rejects.toMatchObject({
      code: 'no_pending',
      appError: { kind: 'invalid' },
    });
    const empty = openNodeSettings({ dir: join(dir, 'empty') });
    await expect(new AuthSession(empty, { openExternal: () => {} }).signIn()).rejects.toMatchObject({
      code: 'no_profile',
    });
  });
});

describe('sign-in failures', () => {
  it('maps a 401 status body to a typed error (wrong consumer secret)', async () => {
    const flow = new SignIn({ openExternal: () => {} });
    const error = (await flow.start({ ...target, consumerSecret: 'wrong' }).catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe('rejected');
    expect(error.status).toBe(401);
    expect(error.appError).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toContain('Invalid Signature');
    expect(flow.pending).toBeNull();
  });

  it('reports an unreachable service as offline', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as { port: number }).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const error = (await new SignIn({ openExternal: () => {} })
      .start({ ...target, baseUrl: `http://127.0.0.1:${port}` })
      .catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe('network');
    expect(error.appError.kind).toBe('offline');
  });

  it('corrects a skewed clock from /oauth/clock/time and signs in', async () => {
    let pin = '';
    const flow = new SignIn({
      now: () => Date.now() + 20 * 60_000, // 20 minutes fast: the service refuses the timestamp once
      openExternal: async (url) =>
        void (pin = /<code id="pin">([^<]+)<\/code>/.exec(await (await browse(url)).text())![1]!),
    });
    const signingIn = flow.start(target, { mode: 'oob' });
    await expect.poll(() => pin, { timeout: 10_000 }).not.toBe('');
    await flow.completeWithPin(pin);
    expect((await signingIn).userId).toBe(svc.subscriber.id);
  });

  it('signs its token calls through the transport it is given: one clock, read once, for the sign-in and what follows', async () => {
    const clockReads: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (urlOf(input).includes('/oauth/clock/time')) clockReads.push(urlOf(input));
      return fetch(input, init);
    };
    const tokens: { token: string; secret: string } = { token: '', secret: '' };
    const transport = createTransport({
      getContext: () => ({
        baseUrl: svc.url,
        consumer: { key: svc.consumer.key, secret: svc.consumer.secret },
        token: tokens.token ? { key: tokens.token, secret: tokens.secret } : null,
      }),
      fetch: counting,
      now: () => Date.now() + 20 * 60_000, // 20 minutes fast
    });
    let pin = '';
    const flow = new SignIn({
      transport,
      openExternal: async (url) =>
        void (pin = /<code id="pin">([^<]+)<\/code>/.exec(await (await browse(url)).text())![1]!),
    });
    const signingIn = flow.start(target, { mode: 'oob' });
    await expect.poll(() => pin, { timeout: 10_000 }).not.toBe('');
    await flow.completeWithPin(pin);
    Object.assign(tokens, await signingIn);
    expect(clockReads).toHaveLength(1);
    expect(Math.abs(transport.clockOffset + 20 * 60)).toBeLessThanOrEqual(2);
    const me = await transport.request({ url: '/users/current', level: 'protected' });
    expect(me.body).toContain(svc.subscriber.id);
    expect(clockReads).toHaveLength(1);
  });

  it('cancels: by cancel(), by a new sign-in, by an AbortSignal', async () => {
    const flow = new SignIn({ openExternal: () => {} });
    const first = flow.start(target);
    await expect.poll(() => flow.pending, { timeout: 10_000 }).not.toBeNull();
    const second = flow.start(target);
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    await expect.poll(() => flow.pending, { timeout: 10_000 }).not.toBeNull();
    flow.cancel();
    await expect(second).rejects.toMatchObject({ code: 'cancelled' });
    expect(flow.pending).toBeNull();

    const controller = new AbortController();
    const third = flow.start(target, { signal: controller.signal });
    controller.abort();
    await expect(third).rejects.toMatchObject({ code: 'cancelled', message: 'Sign-in cancelled.' });
  });

  it('without a browser (openExternal fails, says false, or never answers) waits for a PIN from a page opened anywhere', async () => {
    const openers: Array<[string, () => unknown]> = [
      ['fails', () => Promise.reject(new Error('xdg-open not found'))],
      ['says false', () => false],
      ['never answers', () => new Promise(() => {})],
    ];
    for (const [how, openExternal] of openers) {
      const announced: Array<PendingSignIn | null> = [];
      const flow = new SignIn({
        openExternal: openExternal as () => Promise<void>,
        openWaitMs: 200,
        onPending: (p) => announced.push(p),
      });
      const signingIn = flow.start(target);
      await expect.poll(() => announced.length, { message: how, timeout: 10_000 }).toBe(1);
      expect(announced[0], how).toMatchObject({ mode: 'oob', fellBack: true, browserOpened: false, callbackUrl: null });
      const page = await browse(announced[0]!.loginUrl, 'manual');
      const pin = /<code id="pin">([^<]+)<\/code>/.exec(await page.text())?.[1];
      expect(pin, how).toBeTruthy();
      await flow.completeWithPin(pin!);
      expect((await signingIn).userId, how).toBe(svc.subscriber.id);
      expect(announced.at(-1), how).toBeNull();
    }
  });

  it("refuses a sign-in URL outside the profile's origin", async () => {
    const other = createServer((req, res) => {
      res.setHeader('content-type', 'application/x-www-form-urlencoded');
      res.end(
        'oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=true&application_name=X&login_url=file%3A%2F%2F%2Fetc%2Fpasswd',
      );
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const opened: string[] = [];
      const flow = new SignIn({ openExternal: (u) => void opened.push(u) });
      const error = (await flow
        .start({ ...target, baseUrl: `http://127.0.0.1:${(other.address() as { port: number }).port}` })
        .catch((e: unknown) => e)) as AuthError;
      expect(error.code).toBe('bad_response');
      expect(opened).toEqual([]);
    } finally {
      other.close();
    }
  });
});

describe('helpers', () => {
  it('parses form-encoded answers and status bodies', () => {
    const form = parseForm(
      'oauth_token=a%2Bb&application_name=My+App&login_url=http%3A%2F%2Fx%2Foauth%2Flogin%3Foauth_token%3Da',
    );
    expect(form.get('oauth_token')).toBe('a+b');
    expect(form.get('application_name')).toBe('My App');
    expect(form.get('login_url')).toBe('http://x/oauth/login?oauth_token=a');

    const xml = authErrorFromResponse(
      401,
      '<?xml version="1.0"?><status><status_code>401</status_code><message>Invalid Or Expired Token</message></status>',
    );
    expect(xml).toMatchObject({ code: 'rejected', appError: { kind: 'auth', status: 401 } });
    expect(xml.message).toContain('Invalid Or Expired Token');
    const json = authErrorFromResponse(
      400,
      '{"status":{"status_code":400,"sub_code":7,"message":"Invalid oauth_callback"}}',
    );
    expect(json).toMatchObject({ code: 'service', appError: { kind: 'invalid', subCode: 7 } });
    const quota = authErrorFromResponse(
      403,
      '<status><status_code>403</status_code><message>Over queries per second limit</message></status>',
      { 'retry-after': '1' },
    );
    expect(quota.appError).toMatchObject({ kind: 'quota', retryAfter: 1 });
    expect(authErrorFromResponse(502, 'Bad gateway').appError).toMatchObject({
      kind: 'server',
      message: 'Sign-in failed: HTTP 502.',
    });
  });

  it('the loopback listener answers only its path, once, with the expected token', async () => {
    const cb = await startLoopbackCallback();
    const u = new URL(cb.url);
    expect(u.hostname).toBe('127.0.0.1');
    expect((await fetch(`${cb.url}?oauth_token=t&oauth_verifier=v`)).status).toBe(400); // nothing expected yet
    cb.expect('t');
    expect((await fetch(`${cb.url}?oauth_token=t&oauth_verifier=v`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${u.origin}/?oauth_token=t&oauth_verifier=v`)).status).toBe(404);
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 (fetch will not forge Host).
    const rebound = await new Promise<number>((resolve, reject) =>
      get(`${cb.url}?oauth_token=t&oauth_verifier=v`, { headers: { host: `evil.example:${u.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject),
    );
    expect(rebound).toBe(400);
    const ok = await fetch(`${cb.url}?oauth_token=t&oauth_verifier=v`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await cb.result).toEqual({ token: 't', verifier: 'v' });
    await new Promise((r) => setTimeout(r, 20));
    expect(cb.closed).toBe(true);
    expect(await refused(cb.url)).toBe(true);
  });
});
