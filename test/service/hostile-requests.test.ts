import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { User } from '../../service/model/user.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/** Generated requests per run; docs/RELIABILITY.md records the last run's figures. */
export const HOSTILE_RUNS = 10_000;

/**
 * Resources behind a signature (not the key-level autocomplete and clock, which a consumer key
 * alone may read): every request below is unsigned, badly signed or signed and then altered.
 */
const PATHS = [
  '/catalog/titles',
  '/catalog/titles/movies/:title',
  '/catalog/people/1',
  '/categories/genres',
  '/users/current',
  '/users/:uid',
  '/users/:uid/queues',
  '/users/:uid/queues/instant',
  '/users/:uid/queues/disc',
  '/users/:uid/queues/instant/available/1/:title',
  '/users/:uid/queues/instant/available/:title',
  '/users/:uid/ratings/title/actual',
  '/users/:uid/ratings/title/actual/:title',
  '/users/:uid/title_states',
  '/users/:uid/lists',
  '/users/:uid/feeds',
  '/oauth/revoke',
  '/oauth/access_token',
  '/oauth/request_token',
];

type Attack =
  | 'unsigned'
  | 'key-only'
  | 'wrong-secret'
  | 'wrong-token-secret'
  | 'altered-after-signing'
  | 'other-method'
  | 'junk-header';

interface Hostile {
  attack: Attack;
  method: string;
  path: string;
  query: Array<[string, string]>;
  form: Array<[string, string]>;
  override: string | undefined;
  ifMatch: string | undefined;
  junk: string;
}

const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '99999999999',
    '1.5',
    '%',
    '%zz',
    '"><script>',
    "' OR 1=1 --",
    '\u0000',
    'é',
    '../..',
    'oob',
    'DELETE',
    '*',
  ),
);
const name = fc.oneof(
  fc.constantFrom(
    'title_ref',
    'position',
    'rating',
    'term',
    'start_index',
    'max_results',
    'expand',
    'v',
    'output',
    'method',
    'etag',
    'oauth_token',
    'oauth_signature',
    'oauth_nonce',
    'oauth_timestamp',
    'oauth_consumer_key',
    'oauth_callback',
    'feed_token',
    'title_refs',
  ),
  fc.string({ minLength: 1, maxLength: 8 }),
);
const pairs = fc.array(fc.tuple(name, text), { maxLength: 4 });

const hostile: fc.Arbitrary<Hostile> = fc.record({
  attack: fc.constantFrom<Attack>(
    'unsigned',
    'key-only',
    'wrong-secret',
    'wrong-token-secret',
    'altered-after-signing',
    'other-method',
    'junk-header',
  ),
  method: fc.oneof(
    { arbitrary: fc.constantFrom('GET', 'POST'), weight: 4 },
    { arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS'), weight: 1 },
  ),
  path: fc.constantFrom(...PATHS),
  query: pairs,
  form: pairs,
  override: fc.option(fc.constantFrom('GET', 'PUT', 'DELETE', 'POST', 'PATCH', 'get', 'x'), { nil: undefined }),
  ifMatch: fc.option(fc.constantFrom('"1"', '*', 'W/"0"', '"', 'garbage'), { nil: undefined }),
  junk: fc.string({ maxLength: 40 }),
});

/**
 * Issue 10, proof 1: ten thousand generated hostile requests through the full request path
 * (`app.inject()`). Every answer is a well-formed `<status>` with a 4xx code (never a 5xx or a
 * hang), and nothing a subscriber owns changes.
 */
describe('hostile requests on sqlite', () => {
  let svc: TestService;
  let user: User;
  let token: Credentials;
  let title: number;
  const tally = { requests: 0, byStatus: new Map<number, number>() };

  beforeAll(async () => {
    svc = await startTestService('sqlite');
    user = await createUser(svc.db, {
      login: 'target@hostile.test',
      password: 'pw-target-1',
      firstName: 'T',
      lastName: 'Arget',
      acceptedTos: true,
    });
    const access = await issueAccessToken(svc.db, svc.consumer.key, user.id);
    token = { key: access.token, secret: access.secret };
    title = (await instantMovieIds(svc.db, 1))[0]!;
    const added = await call(svc, `/users/${user.id}/queues/instant`, {
      method: 'POST',
      token,
      form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${title}` },
    });
    expect(added.statusCode).toBe(201);
    const rated = await call(svc, `/users/${user.id}/ratings/title/actual`, {
      method: 'POST',
      token,
      form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${title}`, rating: '4' },
    });
    expect(rated.statusCode).toBe(201);
  });
  afterAll(() => svc.close());

  /** Everything a subscriber owns, as one digest. */
  const ownedState = async () => {
    const k = svc.db.kysely;
    const rows = await Promise.all([
      k.selectFrom('queue_items').selectAll().orderBy('user_id').orderBy('kind').orderBy('position').execute(),
      k.selectFrom('queues').selectAll().orderBy('user_id').orderBy('kind').execute(),
      k.selectFrom('ratings').selectAll().orderBy('user_id').orderBy('title_id').execute(),
      k.selectFrom('access_tokens').selectAll().orderBy('token').execute(),
      k.selectFrom('users').selectAll().orderBy('id').execute(),
      k.selectFrom('lists').selectAll().execute(),
      k
        .selectFrom('request_tokens')
        .select(['token', 'user_id', 'verifier', 'used'])
        .where('user_id', 'is not', null)
        .orderBy('token')
        .execute(),
    ]);
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  };

  const send = async (h: Hostile) => {
    const path = h.path.replace(':uid', user.id).replace(':title', String(title));
    const host = new URL(svc.baseUrl).host;
    const query = new URLSearchParams(h.query);
    if (h.attack === 'key-only') query.set('oauth_consumer_key', svc.consumer.key);
    const qs = query.toString();
    const url = path + (qs ? `?${qs}` : '');
    const form = Object.fromEntries(h.form);
    const headers: Record<string, string> = { host };
    if (h.override !== undefined) headers['x-http-method-override'] = h.override;
    if (h.ifMatch !== undefined) headers['if-match'] = h.ifMatch;
    const full = `http://${host}${url}`;
    if (h.attack === 'wrong-secret')
      headers.authorization = authHeader(
        { key: svc.consumer.key, secret: 'not-the-secret' },
        h.method,
        full,
        form,
        token,
      );
    if (h.attack === 'wrong-token-secret')
      headers.authorization = authHeader(svc.consumer, h.method, full, form, { key: token.key, secret: 'nope' });
    if (h.attack === 'other-method')
      headers.authorization = authHeader(svc.consumer, h.method === 'GET' ? 'POST' : 'GET', full, form, token);
    if (h.attack === 'altered-after-signing')
      headers.authorization = authHeader(svc.consumer, h.method, full, { ...form, injected: 'x' }, token);
    if (h.attack === 'junk-header') headers.authorization = `OAuth ${h.junk}`;
    const payload = h.form.length > 0 && h.method !== 'GET' ? new URLSearchParams(h.form).toString() : undefined;
    if (payload !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    return svc.app.inject({ method: h.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
  };

  it(`answers ${HOSTILE_RUNS} generated hostile requests with a well-formed 4xx status, and changes nothing`, async () => {
    const before = await ownedState();
    await fc.assert(
      fc.asyncProperty(hostile, async (h) => {
        const res = await send(h);
        tally.requests++;
        tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode < 400 || res.statusCode > 499)
          throw new Error(`${res.statusCode} for ${JSON.stringify(h)}: ${res.body.slice(0, 300)}`);
        const status = parseXml(res.body).status;
        if (!status || Number(status.status_code) !== res.statusCode || !status.message)
          throw new Error(`not a status body for ${JSON.stringify(h)}: ${res.body.slice(0, 300)}`);
      }),
      { numRuns: HOSTILE_RUNS, seed: Number(process.env.HOSTILE_SEED ?? 20261125), endOnFailure: true },
    );
    expect(await ownedState()).toBe(before);
    expect(tally.requests).toBe(HOSTILE_RUNS);
    console.log(
      `hostile requests: ${tally.requests}; statuses ${JSON.stringify(Object.fromEntries([...tally.byStatus].sort()))}`,
    );
  }, 240_000);

  it('the subscriber still has everything and the token still works afterwards', async () => {
    const queue = await call(svc, `/users/${user.id}/queues/instant`, { token });
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain(`/catalog/titles/movies/${title}`);
  });
});
