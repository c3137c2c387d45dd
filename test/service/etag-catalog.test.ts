import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogCommand } from '../../service/cli/catalog.ts';
import { options } from '../../service/cli/options.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml, type Xml } from '../helpers/xml.ts';

const arr = (x: Xml): Xml[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const DAY = 86_400;
const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** One representation a subscriber reads: a path, its parameters, and how it is signed. */
interface Representation {
  name: string;
  path: string;
  query: Record<string, string>;
  auth?: 'key';
}

/**
 * Issue 26, item 0: an ETag changes whenever its representation's bytes would. After
 * `catalog availability` changes titles a subscriber has queued, rated, is recommended or asks the
 * state of, a conditional GET with the old ETag answers 200 with the new words under a new ETag,
 * and the new ETag revalidates to 304: queues, queue entries, title states, ratings,
 * recommendations and feeds, in POX, JSON and Atom.
 */
describe.each(DATABASES)('ETags after a catalog change on %s', (kind) => {
  let svc: TestService;
  let uid: string;
  let feedToken: string;
  let token: Credentials;
  let queued: number;
  let stateTitle: number;
  let another: number;
  let recommended: number;
  let now: number;

  const ref = (id: number) => `${svc.baseUrl}/catalog/titles/movies/${id}`;
  const as = (path: string, opts: CallOptions = {}) =>
    call(svc, path, { ...opts, ...(opts.auth === 'key' ? {} : { token }), timestamp: now });

  beforeAll(async () => {
    svc = await startTestService(kind);
    // A fixed clock: an Atom feed's `updated` is the clock, and only the catalog may change here.
    now = Math.floor(Date.now() / 1000);
    svc.clock.now = now;
    const user = await createUser(svc.db, {
      login: `etag-${kind}@example.com`,
      password: 'pw-123456',
      firstName: 'Eta',
      lastName: 'Gee',
    });
    const t = await issueAccessToken(svc.db, svc.consumer.key, user.id);
    uid = user.id;
    feedToken = user.feed_token;
    token = { key: t.token, secret: t.secret };
    [queued, stateTitle, another] = (await instantMovieIds(svc.db, 3)) as [number, number, number];
    const add = await as(`/users/${uid}/queues/instant`, { method: 'POST', form: { title_ref: ref(queued) } });
    expect(add.statusCode, add.body).toBe(201);
    const rate = await as(`/users/${uid}/ratings/title/actual`, {
      method: 'POST',
      form: { title_ref: ref(queued), rating: '4' },
    });
    expect(rate.statusCode, rate.body).toBe(201);
    const recs = await as(`/users/${uid}/recommendations`, { query: { max_results: '1' } });
    recommended = Number(/\/(\d+)$/.exec(String(arr(parseXml(recs.body).recommendations.recommendation)[0]!.id))![1]);
  });
  afterAll(() => svc.close());

  function representations(): Representation[] {
    const feed = { feed_token: feedToken, output: 'atom' };
    const formats = (query: Record<string, string>, atom: boolean) => [
      { tag: 'POX', query },
      { tag: 'JSON', query: { ...query, output: 'json' } },
      ...(atom ? [{ tag: 'Atom', query: { ...query, output: 'atom' } }] : []),
    ];
    const of = (name: string, path: string, query: Record<string, string>, atom: boolean): Representation[] =>
      formats(query, atom).map((f) => ({ name: `${name} (${f.tag})`, path, query: f.query }));
    return [
      ...of('instant queue', `/users/${uid}/queues/instant`, {}, true),
      ...of('queue entry', `/users/${uid}/queues/instant/available/1/${queued}`, {}, false),
      ...of('title states', `/users/${uid}/title_states`, { title_refs: `${ref(queued)},${ref(stateTitle)}` }, false),
      // Ratings and recommendations in Atom show no availability: their bytes, and so their ETags, rightly stay.
      ...of('ratings', `/users/${uid}/ratings/title/actual`, { expand: 'formats' }, false),
      ...of('recommendations', `/users/${uid}/recommendations`, { expand: 'formats', max_results: '5' }, false),
      { name: 'instant queue feed', path: `/users/${uid}/queues/instant`, query: feed, auth: 'key' },
    ];
  }

  const read = (r: Representation, ifNoneMatch?: string) =>
    as(r.path, {
      query: r.query,
      ...(r.auth ? { auth: r.auth } : {}),
      headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {},
    });

  async function availability(id: number, from: string, until: string): Promise<void> {
    const code = await runCatalogCommand(
      svc.db,
      'availability',
      options([String(id), '--from', from, '--until', until]),
      now,
    );
    expect(code).toBe(0);
  }

  it('a conditional GET with the old ETag answers the new words under a new ETag', async () => {
    const before = new Map<string, { etag: string; body: string }>();
    for (const r of representations()) {
      const res = await read(r);
      expect(res.statusCode, `${r.name}: ${res.body}`).toBe(200);
      const etag = res.headers.etag as string;
      expect((await read(r, etag)).statusCode, `${r.name} revalidates`).toBe(304);
      before.set(r.name, { etag, body: res.body });
    }
    const until = now + 10 * DAY;
    await availability(queued, '2020-01-01', isoDate(until));
    await availability(recommended, '2020-01-01', isoDate(until));
    await availability(stateTitle, isoDate(now + 30 * DAY), 'never');

    for (const r of representations()) {
      const old = before.get(r.name)!;
      const res = await read(r, old.etag);
      expect(res.statusCode, `${r.name} with its old ETag`).toBe(200);
      expect(res.body, `${r.name} shows the change`).not.toBe(old.body);
      expect(res.headers.etag, `${r.name} has a new ETag`).not.toBe(old.etag);
      expect((await read(r, res.headers.etag as string)).statusCode, `${r.name} revalidates anew`).toBe(304);
    }
    const queue = await read(representations()[0]!);
    expect(queue.body).toContain(`available until ${isoDate(until)}`);
  });

  it("a write's If-Match takes a queue representation's ETag by its version", async () => {
    const queue = await as(`/users/${uid}/queues/instant`);
    const etag = queue.headers.etag as string;
    expect(etag).toMatch(new RegExp(`^"${parseXml(queue.body).queue.etag}-[\\w-]+"$`));
    const move = (ifMatch: string) =>
      as(`/users/${uid}/queues/instant`, {
        method: 'POST',
        form: { title_ref: ref(another), position: '1' },
        headers: { 'if-match': ifMatch },
      });
    const first = await move(etag);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.etag).toBe(`"${parseXml(first.body).status.etag}"`);
    expect((await move(etag)).statusCode).toBe(412);
  });
});
