import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import { readQueue } from '../../service/store/queue/queues.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { User } from '../../service/model/user.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/**
 * The attacks found in issue 10, each refused: the verifier sent elsewhere than the callback fixed
 * with the request token, a method override outside the signature, a request token approved
 * twice, an unescaped redirect body, tokens used where they do not belong. (Forged signatures,
 * replayed nonces, stale timestamps and other hosts and methods: oauth-http.test.ts; a revoked
 * token: oauth-revoke.test.ts; throttling: sign-in-throttle.test.ts.)
 */
describe.each(DATABASES)('OAuth attacks on %s', (kind) => {
  let svc: TestService;
  let ada: User;
  let grace: User;
  const PASSWORD = 'pw-attack-1';

  beforeAll(async () => {
    svc = await startTestService(kind);
    ada = await createUser(svc.db, {
      login: 'ada@attack.test',
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'L',
      acceptedTos: true,
    });
    grace = await createUser(svc.db, {
      login: 'grace@attack.test',
      password: PASSWORD,
      firstName: 'Grace',
      lastName: 'H',
      acceptedTos: true,
    });
  });
  afterAll(() => svc.close());

  const requestToken = async (callback?: string, consumer: Credentials = svc.consumer) => {
    const res = await call(svc, '/oauth/request_token', {
      method: 'POST',
      consumer,
      form: callback !== undefined ? { oauth_callback: callback } : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries(new URLSearchParams(res.body)) as Record<string, string>;
  };
  const post = (token: string, login: string, extra: Record<string, string> = {}) =>
    call(svc, '/oauth/login', {
      method: 'POST',
      auth: 'none',
      form: { oauth_token: token, login, password: PASSWORD, ...extra },
    });
  const pinOf = (body: string) => /<code id="pin">([^<]+)<\/code>/.exec(body)?.[1];
  const tokenFor = async (user: User, consumer: Consumer = svc.consumer): Promise<Credentials> => {
    const access = await issueAccessToken(svc.db, consumer.key, user.id);
    return { key: access.token, secret: access.secret };
  };

  it('a callback named on the login page cannot replace the one fixed with the request token', async () => {
    const fixed = 'http://127.0.0.1:9/app-callback';
    const rt = await requestToken(fixed);
    const page = await call(svc, '/oauth/login', {
      auth: 'none',
      query: { oauth_token: rt.oauth_token!, oauth_callback: 'https://evil.example/steal' },
    });
    expect(page.headers['content-security-policy']).not.toContain('evil.example');
    const res = await post(rt.oauth_token!, ada.login, { oauth_callback: 'https://evil.example/steal' });
    expect(res.statusCode).toBe(302);
    expect(new URL(res.headers.location as string).origin + new URL(res.headers.location as string).pathname).toBe(
      fixed,
    );
  });

  it('with oob fixed, a callback named on the page still gets the PIN page, not a redirect', async () => {
    const rt = await requestToken('oob');
    const res = await post(rt.oauth_token!, ada.login, { oauth_callback: 'https://evil.example/steal' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(pinOf(res.body)).toBeDefined();
  });

  it('an OAuth 1.0 consumer may name a callback on the page only within its registered origin', async () => {
    const legacy = await createConsumer(svc.db, {
      name: 'Old Reader',
      legacy: true,
      callbackOrigin: 'https://reader.example',
      perSecond: 1000,
      perDay: 100000,
    });
    const inside = await requestToken(undefined, legacy);
    const ok = await post(inside.oauth_token!, ada.login, { oauth_callback: 'https://reader.example/done' });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toMatch(/^https:\/\/reader\.example\/done\?oauth_token=/);
    const outside = await requestToken(undefined, legacy);
    const refused = await post(outside.oauth_token!, ada.login, { oauth_callback: 'https://evil.example/steal' });
    expect(refused.statusCode).toBe(200);
    expect(pinOf(refused.body)).toBeDefined();
  });

  it('an approved request token cannot be approved again by another subscriber; the first PIN still works', async () => {
    const rt = await requestToken('oob');
    const pin = pinOf((await post(rt.oauth_token!, ada.login)).body)!;
    const again = await post(rt.oauth_token!, grace.login);
    expect(pinOf(again.body)).toBeUndefined();
    expect(again.body).toContain('already used');
    const at = await call(svc, '/oauth/access_token', {
      method: 'POST',
      token: { key: rt.oauth_token!, secret: rt.oauth_token_secret! },
      form: { oauth_verifier: pin },
    });
    expect(at.statusCode, at.body).toBe(200);
    expect(new URLSearchParams(at.body).get('user_id')).toBe(ada.id);
  });

  it('the 302 carrying the verifier is never cached and its body escapes the callback', async () => {
    const rt = await requestToken('myapp:x"><script>alert(1)</script>');
    const res = await post(rt.oauth_token!, ada.login);
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('a signed GET with X-HTTP-Method-Override: DELETE deletes nothing', async () => {
    const token = await tokenFor(ada);
    const [title] = await instantMovieIds(svc.db, 1);
    const base = `/users/${ada.id}/queues/instant`;
    const added = await call(svc, base, {
      method: 'POST',
      token,
      form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${title}` },
    });
    expect(added.statusCode, added.body).toBe(201);
    const item = `${base}/available/${title}`;
    const res = await call(svc, item, { token, headers: { 'x-http-method-override': 'DELETE' } });
    expect(res.statusCode).toBe(400);
    const byParam = await call(svc, item, { token, query: { method: 'DELETE' } });
    expect(byParam.statusCode).toBe(400);
    expect((await readQueue(svc.db, ada.id, 'instant')).entries.map((e) => e.title_id)).toEqual([title]);
  });

  it('a token issued to another consumer is refused', async () => {
    const other = await createConsumer(svc.db, { name: 'Other', perSecond: 1000, perDay: 100000 });
    const token = await tokenFor(ada, other);
    const res = await call(svc, `/users/${ada.id}`, { token });
    expect(res.statusCode).toBe(401);
    expect(parseXml(res.body).status.message).toBe('Invalid Or Expired Token');
  });

  it('a request token, approved or not, is no access token', async () => {
    const rt = await requestToken('oob');
    await post(rt.oauth_token!, ada.login);
    const res = await call(svc, `/users/${ada.id}`, {
      token: { key: rt.oauth_token!, secret: rt.oauth_token_secret! },
    });
    expect(res.statusCode).toBe(401);
    expect(parseXml(res.body).status.message).toBe('Invalid Or Expired Token');
  });

  it("an access token cannot read or write another subscriber's resources", async () => {
    const token = await tokenFor(grace);
    for (const path of [
      `/users/${ada.id}`,
      `/users/${ada.id}/queues/instant`,
      `/users/${ada.id}/ratings/title/actual`,
    ]) {
      const res = await call(svc, path, { token });
      expect(res.statusCode, path).toBe(403);
    }
    const write = await call(svc, `/users/${ada.id}/queues/instant`, {
      method: 'POST',
      token,
      form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/1` },
    });
    expect(write.statusCode).toBe(403);
  });

  it('an access token cannot be exchanged at /oauth/access_token', async () => {
    const token = await tokenFor(ada);
    const res = await call(svc, '/oauth/access_token', { method: 'POST', token, form: { oauth_verifier: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});
