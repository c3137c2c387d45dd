import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OperationName } from '../../shared/ipc.ts';
import type { AuthStatus } from '../../shared/models.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { postSignIn, readSignInPage } from '../helpers/sign-in-page.ts';

/**
 * Sign-in that always completes, through dispatch against the real service: the pending sign-in
 * in auth.status and auth.changed, the PIN when no browser opens, Cancel, and sign-out revoking the
 * token on the service.
 */
let env: LiveCoreEnv;
/** What the host's openExternal answers: false plays "no browser" (MARQUEE_NO_BROWSER=1, no display). */
let browserOpens = false;

beforeAll(async () => {
  env = await startLiveCore({ signedIn: false, core: { openExternal: () => browserOpens } });
});
afterAll(() => env?.close());
beforeEach(async () => {
  browserOpens = false;
  valueOf(await dispatch('auth.signOut', {}));
  env.events.length = 0;
});

const dispatch = <N extends OperationName>(name: N, input: unknown) => env.core.dispatch(name, input);
const authEvents = () => env.events.filter((e) => e.event === 'auth.changed').map((e) => e.payload);

async function pendingSignIn(): Promise<AuthStatus['pending'] & object> {
  await expect.poll(() => authEvents().find((s) => s.pending)?.pending, { timeout: 10_000 }).toBeTruthy();
  return authEvents().find((s) => s.pending)!.pending!;
}

/** A person opening the link on any device: the service's page, the form posted, the PIN it shows. */
async function approveOnServicePage(loginUrl: string): Promise<string> {
  const who = { login: env.svc.subscriber.login, password: env.svc.password };
  const res = await postSignIn(await readSignInPage(loginUrl), who, 'manual');
  return /<code id="pin">([^<]+)<\/code>/.exec(await res.text())![1]!;
}

describe('a sign-in with no browser', () => {
  it('shows its link in auth.status and auth.changed, and completes with the PIN the page shows', async () => {
    const signingIn = dispatch('auth.signIn', {});
    const pending = await pendingSignIn();
    expect(pending).toEqual({
      loginUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/login\?/),
      mode: 'oob',
      browserOpened: false,
    });
    expect(valueOf(await dispatch('auth.status', {})).pending).toEqual(pending);

    const pin = await approveOnServicePage(pending.loginUrl);
    const completed = valueOf(await dispatch('auth.completeWithPin', { pin }));
    expect(completed).toMatchObject({ signedIn: true, pending: null, user: { id: env.svc.subscriber.id } });
    expect(valueOf(await signingIn)).toMatchObject({ signedIn: true, pending: null });
    expect(authEvents().at(-1)).toMatchObject({ signedIn: true, pending: null });
  });

  it('says a wrong PIN in words and keeps waiting for the right one', async () => {
    const signingIn = dispatch('auth.signIn', {});
    const pending = await pendingSignIn();
    expect(await dispatch('auth.completeWithPin', { pin: 'not-the-pin' })).toMatchObject({
      ok: false,
      error: { kind: 'auth', message: expect.stringContaining('PIN') },
    });
    expect(valueOf(await dispatch('auth.status', {})).pending).toEqual(pending);
    valueOf(await dispatch('auth.completeWithPin', { pin: await approveOnServicePage(pending.loginUrl) }));
    expect(valueOf(await signingIn).signedIn).toBe(true);
  });
});

describe('auth.cancel', () => {
  it('ends the waiting auth.signIn with kind "auth", "Sign-in cancelled.", and clears the pending state', async () => {
    browserOpens = true;
    const signingIn = dispatch('auth.signIn', {});
    expect(await pendingSignIn()).toMatchObject({ mode: 'loopback', browserOpened: true });
    const cancelled = valueOf(await dispatch('auth.cancel', {}));
    expect(cancelled).toMatchObject({ signedIn: false, pending: null });
    expect(await signingIn).toEqual({ ok: false, error: { kind: 'auth', message: 'Sign-in cancelled.' } });
    expect(authEvents().at(-1)).toMatchObject({ signedIn: false, pending: null });
  });
});

describe('auth.signOut', () => {
  /** GET /users/current signed with a token the core held, as another program would. */
  const tokenWorks = async (token: { token: string; secret: string }) => {
    const url = `${env.svc.url}/users/current`;
    const header = authHeader(
      { key: env.svc.consumer.key, secret: env.svc.consumer.secret },
      'GET',
      url,
      {},
      { key: token.token, secret: token.secret },
    );
    return (await fetch(url, { headers: { authorization: header } })).status === 200;
  };

  async function signIn(): Promise<{ token: string; secret: string }> {
    const signingIn = dispatch('auth.signIn', {});
    valueOf(
      await dispatch('auth.completeWithPin', { pin: await approveOnServicePage((await pendingSignIn()).loginUrl) }),
    );
    valueOf(await signingIn);
    return env.settings.getTokens('embedded')!;
  }

  it('revokes the access token on the service and forgets it here', async () => {
    const token = await signIn();
    expect(await tokenWorks(token)).toBe(true);
    expect(valueOf(await dispatch('auth.signOut', {}))).toMatchObject({ signedIn: false });
    expect(env.settings.getTokens('embedded')).toBeNull();
    expect(await tokenWorks(token)).toBe(false);
  });

  it('offline, still forgets the token here', async () => {
    const token = await signIn();
    await env.stopService();
    try {
      expect(valueOf(await dispatch('auth.signOut', {}))).toMatchObject({ signedIn: false });
      expect(env.settings.getTokens('embedded')).toBeNull();
    } finally {
      await env.startService();
    }
    expect(await tokenWorks(token)).toBe(true); // the service never heard of it: only this computer forgot it
  });
});
