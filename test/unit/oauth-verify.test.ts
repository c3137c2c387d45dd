import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OAuth1a from 'oauth-1.0a';
import OAuth from 'oauth';
import { openDb, type Db } from '../../service/store/db.ts';
import { createConsumer, revokeConsumer } from '../../service/store/oauth/consumers.ts';
import { issueAccessToken, revokeAccessToken, type AccessToken } from '../../service/store/oauth/tokens.ts';
import { verifyRequest, type AuthLevel, type VerifyOptions } from '../../service/oauth/verify.ts';
import type { SignedRequest } from '../../service/oauth/params.ts';
import { ApiError } from '../../service/model/api-error.ts';
import { storeVerifier } from '../../service/http/auth.ts';

const KEY = 'testconsumerkey';
const SECRET = 'test consumer secret&!'; // spaces and reserved characters exercise key encoding
const OTHER_KEY = 'otherconsumer';
const REVOKED_KEY = 'revokedconsumer';
const BASE = 'http://api.marquee.test:8080';

let dir: string;
let db: Db;
let token: AccessToken;
let revokedToken: AccessToken;
let otherToken: AccessToken;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-oauth-'));
  db = await openDb({ sqlitePath: join(dir, 'db.sqlite') });
  await createConsumer(db, { name: 'Test', key: KEY, secret: SECRET });
  await createConsumer(db, { name: 'Other', key: OTHER_KEY, secret: 'othersecret' });
  await createConsumer(db, { name: 'Revoked', key: REVOKED_KEY, secret: 'revokedsecret' });
  await revokeConsumer(db, REVOKED_KEY);
  token = await issueAccessToken(db, KEY, 'user-1');
  revokedToken = await issueAccessToken(db, KEY, 'user-2');
  await revokeAccessToken(db, revokedToken.token);
  otherToken = await issueAccessToken(db, OTHER_KEY, 'user-3');
});

afterAll(async () => void (await db.close(), rmSync(dir, { recursive: true, force: true })));

type Tok = { key: string; secret: string };
type Placement = 'header' | 'query' | 'body';
const tok = (): Tok => ({ key: token.token, secret: token.secret });
const verify = (req: SignedRequest, level: AuthLevel, options?: VerifyOptions) =>
  verifyRequest(storeVerifier(db), req, level, options);
const now = () => Math.floor(Date.now() / 1000);

/** The verifier's request shape, decoded independently of the service (URLSearchParams: `+` is a space). */
function request(method: string, url: string, extra: { body?: string; authorization?: string } = {}): SignedRequest {
  const u = new URL(url);
  const body = extra.body ? [...new URLSearchParams(extra.body)] : [];
  return {
    method,
    scheme: u.protocol.replace(/:$/, ''),
    host: u.host,
    path: u.pathname,
    query: [...new URLSearchParams(u.search)],
    body,
    ...(extra.authorization !== undefined ? { authorization: extra.authorization } : {}),
  };
}

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const form = (pairs: Array<[string, string | number]>) =>
  pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(String(v))}`).join('&');

async function expectApiError(promise: Promise<unknown>, statusCode: number, message: string): Promise<void> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect({ statusCode: (error as ApiError).statusCode, message: (error as ApiError).message }).toEqual({
    statusCode,
    message,
  });
}

/** Client 1: oauth-1.0a with crypto's HMAC-SHA1. */
function oauth1a(key = KEY, secret = SECRET, extra: Partial<OAuth1a.Options> = {}): OAuth1a {
  const hash_function = (base: string, k: string) => createHmac('sha1', k).update(base).digest('base64');
  return new OAuth1a({ consumer: { key, secret }, signature_method: 'HMAC-SHA1', hash_function, ...extra });
}

/** Signs with oauth-1.0a and puts the OAuth parameters where asked; a POST's own data goes in the body. */
function sign1a(
  client: OAuth1a,
  method: string,
  path: string,
  data: Record<string, string>,
  placement: Placement,
  t?: Tok,
): SignedRequest {
  const url = BASE + path;
  const auth = client.authorize({ url, method, data }, t);
  // authorize() returns the request data merged in; keep only the protocol parameters.
  const oauthPairs = (Object.entries(auth) as Array<[string, string | number]>).filter(([k]) => k.startsWith('oauth_'));
  const dataPairs = Object.entries(data);
  const post = method === 'POST';
  if (placement === 'header') {
    const authorization = client.toHeader(auth).Authorization;
    return post
      ? request(method, url, { body: form(dataPairs), authorization })
      : request(method, `${url}?${form(dataPairs)}`, { authorization });
  }
  if (placement === 'query') {
    return post
      ? request(method, `${url}?${form(oauthPairs)}`, { body: form(dataPairs) })
      : request(method, `${url}?${form([...dataPairs, ...oauthPairs])}`);
  }
  return request(method, url, { body: form([...dataPairs, ...oauthPairs]) });
}

/** Client 2: the `oauth` package. */
const oauthPkg = (key = KEY, secret = SECRET, method = 'HMAC-SHA1') =>
  new OAuth.OAuth('', '', key, secret, '1.0', null, method);

/** The `oauth` package's own signing steps (protected in its types), without its network code. */
function signPkg(tokKey: string, tokSecret: string, method: string, url: string, extra: Record<string, string>) {
  const c = oauthPkg() as unknown as {
    _prepareParameters(t: string, s: string, m: string, u: string, e: Record<string, string>): string[][];
    _buildAuthorizationHeaders(p: string[][]): string;
  };
  const ordered = c._prepareParameters(tokKey, tokSecret, method, url, extra);
  return {
    pairs: ordered.map(([k, v]): [string, string] => [k!, v!]),
    authorization: c._buildAuthorizationHeaders(ordered),
  };
}

describe('verifyRequest accepts requests signed by oauth-1.0a', () => {
  const search = { term: 'Amélie & "Friends" *!~+', max_results: '5' };

  for (const placement of ['header', 'query', 'body'] as const) {
    it(`with OAuth parameters in the ${placement}`, async () => {
      const ctx = await verify(
        sign1a(oauth1a(), placement === 'body' ? 'POST' : 'GET', '/catalog/titles', search, placement),
        'signed',
      );
      expect(ctx.consumer.key).toBe(KEY);
      expect(ctx.token).toBeUndefined();
    });
  }

  it('a POST with signed form parameters at the protected level, with a realm', async () => {
    const body = { title_ref: `${BASE}/catalog/titles/movies/60031236`, position: '1' };
    const req = sign1a(
      oauth1a(KEY, SECRET, { realm: 'Marquee' }),
      'POST',
      '/users/user-1/queues/disc',
      body,
      'header',
      tok(),
    );
    expect((await verify(req, 'protected')).token).toEqual({ token: token.token, userId: 'user-1' });
  });

  it('a token at the signed level, checked and reported', async () => {
    const req = sign1a(oauth1a(), 'GET', '/catalog/titles', search, 'query', tok());
    expect((await verify(req, 'signed')).token).toEqual({ token: token.token, userId: 'user-1' });
  });

  it('a signature whose "+" arrived unescaped in the query', async () => {
    for (let i = 0; i < 50; i++) {
      const auth = oauth1a().authorize({ url: `${BASE}/catalog/titles`, method: 'GET', data: { n: String(i) } });
      if (!auth.oauth_signature.includes('+')) continue;
      const query = Object.entries(auth).map(([k, v]) =>
        k === 'oauth_signature' ? `${k}=${v}` : `${k}=${rfc3986(String(v))}`,
      );
      expect((await verify(request('GET', `${BASE}/catalog/titles?${query.join('&')}`), 'signed')).consumer.key).toBe(
        KEY,
      );
      return;
    }
    throw new Error('no signature with "+" in 50 tries');
  });
});

describe('verifyRequest accepts requests signed by the oauth package', () => {
  it('signUrl at the signed and protected levels (everything in the query)', async () => {
    const url = oauthPkg().signUrl(
      `${BASE}/catalog/titles?term=${rfc3986('Dark Knight')}&start_index=0`,
      '',
      '',
      'GET',
    );
    expect((await verify(request('GET', url), 'signed')).consumer.key).toBe(KEY);
    const url2 = oauthPkg().signUrl(`${BASE}/users/user-1/queues/instant?sort=alphabetical`, token.token, token.secret);
    expect((await verify(request('GET', url2), 'protected')).token).toEqual({ token: token.token, userId: 'user-1' });
  });

  it('authHeader with query parameters', async () => {
    const url = `${BASE}/catalog/titles?term=${rfc3986('Crème brûlée (2008)')}`;
    const authorization = oauthPkg().authHeader(url, token.token, token.secret, 'GET');
    expect((await verify(request('GET', url, { authorization }), 'protected')).consumer.key).toBe(KEY);
  });

  it('a POST with form body parameters signed, OAuth in the header', async () => {
    const url = `${BASE}/users/user-1/ratings/title/actual`;
    const params = { title_ref: `${BASE}/catalog/titles/movies/1`, rating: '4' };
    const { authorization } = signPkg(token.token, token.secret, 'POST', url, params);
    const ctx = await verify(request('POST', url, { body: form(Object.entries(params)), authorization }), 'protected');
    expect(ctx.token?.userId).toBe('user-1');
  });

  it('a POST with everything in the form body', async () => {
    const url = `${BASE}/catalog/titles`;
    const { pairs } = signPkg('', '', 'POST', url, { term: 'x y' });
    expect((await verify(request('POST', url, { body: form(pairs) }), 'signed')).consumer.key).toBe(KEY);
  });
});

describe('the key level', () => {
  it('needs only a known consumer key, ignoring signature and clock (clients re-sync via /oauth/clock/time)', async () => {
    expect(
      (await verify(request('GET', `${BASE}/catalog/titles/autocomplete?oauth_consumer_key=${KEY}&term=da`), 'key'))
        .consumer.key,
    ).toBe(KEY);
    const req = request(
      'GET',
      `${BASE}/oauth/clock/time?oauth_consumer_key=${KEY}&oauth_signature=bad&oauth_timestamp=1`,
    );
    expect((await verify(req, 'key')).consumer.key).toBe(KEY);
  });
});

describe('verifyRequest refuses', () => {
  const data = { term: 'Dark Knight' };

  it('an unsigned request at the signed level, a tampered parameter or signature', async () => {
    await expectApiError(
      verify(request('GET', `${BASE}/catalog/titles?oauth_consumer_key=${KEY}&term=da`), 'signed'),
      401,
      'Invalid Signature',
    );
    const req = sign1a(oauth1a(), 'GET', '/catalog/titles', data, 'header');
    await expectApiError(
      verify({ ...req, query: [['term', 'Dark Knight Rises']] }, 'signed'),
      401,
      'Invalid Signature',
    );
    const url = oauthPkg()
      .signUrl(`${BASE}/catalog/titles?term=a`, '', '')
      .replace(/oauth_signature=[^&]*/, 'oauth_signature=AAAA');
    await expectApiError(verify(request('GET', url), 'signed'), 401, 'Invalid Signature');
  });

  it('another transport method, host or port than the one signed (overrides do not change the base string)', async () => {
    const req = sign1a(oauth1a(), 'POST', '/users/user-1/queues/disc', { method: 'DELETE' }, 'header', tok());
    await expectApiError(verify({ ...req, method: 'DELETE' }, 'protected'), 401, 'Invalid Signature');
    await expectApiError(verify({ ...req, host: 'api.marquee.test:8081' }, 'protected'), 401, 'Invalid Signature');
  });

  it('a stale or future timestamp (±301 s) but accepts ±300 s', async () => {
    for (const skew of [301, -301]) {
      // The clock is read once: a second passing between signing and checking would make -301 read -300.
      const [client, ts] = [oauth1a(), now()];
      client.getTimeStamp = () => ts;
      await expectApiError(
        verify(sign1a(client, 'GET', '/catalog/titles', data, 'header'), 'signed', { now: () => ts + skew }),
        401,
        'Timestamp Is Invalid',
      );
    }
    for (const skew of [300, -300]) {
      const [client, ts] = [oauth1a(), now()];
      client.getTimeStamp = () => ts;
      expect(
        (await verify(sign1a(client, 'GET', '/catalog/titles', data, 'header'), 'signed', { now: () => ts + skew }))
          .consumer.key,
      ).toBe(KEY);
    }
  });

  it('a missing or non-numeric timestamp, a missing nonce', async () => {
    const client = oauth1a();
    client.getTimeStamp = () => '1e9' as unknown as number;
    await expectApiError(
      verify(sign1a(client, 'GET', '/catalog/titles', data, 'query'), 'signed'),
      401,
      'Timestamp Is Invalid',
    );
    const req = sign1a(oauth1a(), 'GET', '/catalog/titles', data, 'query');
    await expectApiError(
      verify({ ...req, query: req.query.filter(([k]) => k !== 'oauth_timestamp') }, 'signed'),
      401,
      'Timestamp Is Invalid',
    );
    await expectApiError(
      verify({ ...req, query: req.query.filter(([k]) => k !== 'oauth_nonce') }, 'signed'),
      401,
      'Nonce Already Used',
    );
  });

  it('a reused nonce (same consumer, token, timestamp) but not the same nonce with a new timestamp or token', async () => {
    const [client, ts] = [oauth1a(), now()];
    client.getNonce = () => 'fixed-nonce-1';
    client.getTimeStamp = () => ts;
    const first = sign1a(client, 'GET', '/users/user-1', {}, 'header', tok());
    await verify(first, 'protected');
    await expectApiError(verify(first, 'protected'), 401, 'Nonce Already Used');
    await expectApiError(
      verify(sign1a(client, 'GET', '/users/user-1/queues', {}, 'query', tok()), 'protected'),
      401,
      'Nonce Already Used',
    );
    client.getTimeStamp = () => ts + 1;
    expect((await verify(sign1a(client, 'GET', '/users/user-1', {}, 'header', tok()), 'protected')).consumer.key).toBe(
      KEY,
    );
    client.getTimeStamp = () => ts; // no token: another nonce scope
    expect((await verify(sign1a(client, 'GET', '/catalog/titles', data, 'header'), 'signed')).consumer.key).toBe(KEY);
  });

  it('a forged request without burning the nonce it carries', async () => {
    const client = oauth1a();
    client.getNonce = () => 'fixed-nonce-2';
    const genuine = sign1a(client, 'GET', '/catalog/titles', data, 'header');
    await expectApiError(verify({ ...genuine, query: [['term', 'forged']] }, 'signed'), 401, 'Invalid Signature');
    expect((await verify(genuine, 'signed')).consumer.key).toBe(KEY);
  });

  it('an unknown or revoked consumer, even at the key level', async () => {
    for (const [key, secret] of [
      ['nosuchconsumer', 'whatever'],
      [REVOKED_KEY, 'revokedsecret'],
    ] as const) {
      const req = sign1a(oauth1a(key, secret), 'GET', '/catalog/titles', data, 'header');
      await expectApiError(verify(req, 'signed'), 401, 'Invalid Signature');
      await expectApiError(verify(req, 'key'), 401, 'Invalid Signature');
    }
  });

  it('a missing consumer key at every level', async () => {
    for (const level of ['key', 'signed', 'protected'] as const) {
      await expectApiError(
        verify(request('GET', `${BASE}/catalog/titles?term=x`), level),
        401,
        'Missing Required Consumer Key',
      );
    }
    await expectApiError(
      verify(request('GET', `${BASE}/x?oauth_consumer_key=`), 'key'),
      401,
      'Missing Required Consumer Key',
    );
  });

  it('a protected request without an access token (400), also with an empty oauth_token', async () => {
    await expectApiError(
      verify(sign1a(oauth1a(), 'GET', '/users/user-1', {}, 'header'), 'protected'),
      400,
      'Missing Required Access Token',
    );
    const url = oauthPkg().signUrl(`${BASE}/users/user-1?oauth_token=`, '', '');
    await expectApiError(verify(request('GET', url), 'protected'), 400, 'Missing Required Access Token');
  });

  it('an unknown, revoked or foreign token', async () => {
    const foreign = { key: otherToken.token, secret: otherToken.secret }; // issued to another consumer
    for (const t of [
      { key: 'nosuchtoken', secret: 'x' },
      { key: revokedToken.token, secret: revokedToken.secret },
      foreign,
    ]) {
      for (const level of ['signed', 'protected'] as const) {
        await expectApiError(
          verify(sign1a(oauth1a(), 'GET', '/users/user-1', {}, 'header', t), level),
          401,
          'Invalid Or Expired Token',
        );
      }
    }
  });

  it('a wrong token secret or consumer secret', async () => {
    const url = oauthPkg().signUrl(`${BASE}/users/user-1`, token.token, 'not-the-secret');
    await expectApiError(verify(request('GET', url), 'protected'), 401, 'Invalid Signature');
    const url2 = oauthPkg(KEY, 'wrong').signUrl(`${BASE}/users/user-1`, token.token, token.secret);
    await expectApiError(verify(request('GET', url2), 'protected'), 401, 'Invalid Signature');
  });

  it('a signature method other than HMAC-SHA1', async () => {
    for (const method of ['PLAINTEXT', 'HMAC-SHA256']) {
      const url = oauthPkg(KEY, SECRET, method).signUrl(`${BASE}/catalog/titles?term=a`, '', '');
      await expectApiError(verify(request('GET', url), 'signed'), 401, 'Invalid Signature');
    }
  });

  it('an OAuth parameter sent twice with different values', async () => {
    const req = sign1a(oauth1a(), 'GET', '/catalog/titles', data, 'header');
    await expectApiError(
      verify({ ...req, query: [...req.query, ['oauth_consumer_key', OTHER_KEY]] }, 'signed'),
      401,
      'Invalid Signature',
    );
  });
});

describe('tokenSecretLookup', () => {
  const requestToken = { key: 'requesttoken0001', secret: 'requestsecret' };

  it('lets the token endpoints verify with a request-token secret', async () => {
    const lookup = (t: string) =>
      Promise.resolve(t === requestToken.key ? { secret: requestToken.secret, consumerKey: KEY, userId: '' } : null);
    // oauth-1.0a also copies oauth_verifier into the header, so it arrives twice, signed once.
    const req = sign1a(oauth1a(), 'POST', '/oauth/access_token', { oauth_verifier: '12345' }, 'header', requestToken);
    await expectApiError(verify(req, 'protected'), 401, 'Invalid Or Expired Token');
    // A request token issued to another consumer is refused (and burns no nonce).
    const foreign = () => Promise.resolve({ secret: requestToken.secret, consumerKey: OTHER_KEY, userId: '' });
    await expectApiError(verify(req, 'protected', { tokenSecretLookup: foreign }), 401, 'Invalid Or Expired Token');
    expect((await verify(req, 'protected', { tokenSecretLookup: lookup })).token).toEqual({
      token: requestToken.key,
      userId: '',
    });
  });
});
