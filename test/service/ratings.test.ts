import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, parseXml, PREDICTED_TITLE_CHILDREN, type Xml } from '../helpers/xml.ts';

const arr = (x: Xml): Xml[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const ATOM = '<feed xmlns="http://www.w3.org/2005/Atom">';

describe.each(DATABASES)('ratings on %s', (kind) => {
  let svc: TestService;
  let movies: number[];

  beforeAll(async () => {
    svc = await startTestService(kind);
    movies = (
      await svc.db.kysely
        .selectFrom('titles')
        .select('id')
        .where('type', '=', 'movie')
        .where('average_rating', 'is not', null)
        .orderBy('id')
        .limit(40)
        .execute()
    ).map((r) => r.id);
  });
  afterAll(() => svc.close());

  const subscriber = () => newSubscriber(svc, { firstName: 'Rae', lastName: 'Ter' });
  const ref = (id: number) => `${svc.baseUrl}/catalog/titles/movies/${id}`;
  const as = (u: TestSubscriber, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: u.token });
  const actual = (u: TestSubscriber) => `/users/${u.uid}/ratings/title/actual`;
  const rate = (u: TestSubscriber, id: number, rating: string) =>
    as(u, actual(u), { method: 'POST', form: { title_ref: ref(id), rating } });
  const status = (body: string) => parseXml(body).status;

  it('creates a rating (201 with the new rating) and refuses a second one with 422', async () => {
    const u = await subscriber();
    const [a] = movies;
    const res = await rate(u, a!, '4');
    expect(res.statusCode, res.body).toBe(201);
    const s = status(res.body);
    expect(s.status_code).toBe('201');
    const created = s.resources_created;
    expect(created.link[0].href).toBe(`${svc.baseUrl}/users/${u.uid}/ratings/title/actual/${a}`);
    expect(created.link[0].rel).toBe('http://schemas.netflix.com/ratings.title.actual');
    const item = created.ratings_item[0];
    expect(item.id).toBe(`${svc.baseUrl}/users/${u.uid}/ratings/title/${a}`);
    expect(item.user_rating).toBe('4');
    expect(item.predicted_rating).toMatch(/^[1-5]\.\d$/);

    const again = await rate(u, a!, '2');
    expect(again.statusCode).toBe(422);
    expect(status(again.body)).toMatchObject({ status_code: '422', message: 'Title has already been rated' });
    expect(parseXml((await as(u, `${actual(u)}/${a}`)).body).ratings_item.user_rating).toBe('4');
  });

  it('refuses bad requests: rating and title_ref missing or invalid, unknown titles', async () => {
    const u = await subscriber();
    const [, b] = movies;
    for (const rating of ['0', '6', '4.5', 'great', 'no_opinion']) {
      const res = await rate(u, b!, rating);
      expect(res.statusCode, rating).toBe(400);
      expect(status(res.body).message).toBe('rating is invalid');
    }
    let res = await as(u, actual(u), { method: 'POST', form: { title_ref: ref(b!) } });
    expect([res.statusCode, status(res.body).message]).toEqual([400, 'rating is required']);
    res = await as(u, actual(u), { method: 'POST', form: { rating: '3' } });
    expect([res.statusCode, status(res.body).message]).toEqual([400, 'title_ref is required']);
    for (const bad of [`${svc.baseUrl}/catalog/titles/movies/1`, 'not a ref', `${svc.baseUrl}/catalog/people/${b}`]) {
      res = await as(u, actual(u), { method: 'POST', form: { title_ref: bad, rating: '3' } });
      expect(res.statusCode).toBe(400);
      expect(status(res.body)).toMatchObject({ sub_code: '130', message: 'Title not found or not available' });
    }
    res = await as(u, `${actual(u)}/1`, { method: 'POST', form: { rating: '3' } });
    expect([res.statusCode, status(res.body).sub_code]).toEqual([400, '130']);
    expect((await as(u, `${actual(u)}/${b}`)).statusCode).toBe(404);
    expect((await as(u, `${actual(u)}/1`)).statusCode).toBe(404);
    expect((await as(u, `${actual(u)}/abc`)).statusCode).toBe(404);
    res = await as(u, `${actual(u)}/${b}`, { method: 'PUT', form: { rating: 'eleven' } });
    expect([res.statusCode, status(res.body).message]).toEqual([400, 'rating is invalid']);
    res = await as(u, `${actual(u)}/${b}`, { method: 'PUT', form: {} });
    expect([res.statusCode, status(res.body).message]).toEqual([400, 'rating is required']);
    expect((await as(u, `${actual(u)}/1`, { method: 'PUT', form: { rating: '3' } })).statusCode).toBe(404);
  });

  it('creates by POST to the rating’s own URL, as historical clients did', async () => {
    const u = await subscriber();
    const c = movies[2]!;
    const res = await as(u, `${actual(u)}/${c}`, {
      method: 'POST',
      form: { rating: 'not_interested', title_refs: ref(c) },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).toContain('<user_rating value="not_interested"/>');
    const again = await as(u, `${actual(u)}/${c}`, { method: 'POST', form: { rating: '5' } });
    expect([again.statusCode, status(again.body).message]).toEqual([422, 'Title has already been rated']);
  });

  it('changes, marks not interested and clears a rating with PUT (also as an override)', async () => {
    const u = await subscriber();
    const d = movies[3]!;
    const url = `${actual(u)}/${d}`;
    // PUT on an unrated title sets it (clients PUT to the swapped ratings_item id).
    let res = await as(u, url, { method: 'PUT', form: { rating: '2' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(status(res.body).status_code).toBe('200');
    const item = parseXml((await as(u, url)).body).ratings_item;
    expect(item.user_rating).toBe('2');
    expect(item.predicted_rating).toBeUndefined();

    res = await as(u, url, { method: 'POST', form: { method: 'PUT', rating: '5' } });
    expect(res.statusCode).toBe(200);
    expect(parseXml((await as(u, url)).body).ratings_item.user_rating).toBe('5');
    // A GET never writes, even one naming PUT.
    res = await as(u, url, { method: 'GET', query: { method: 'PUT', rating: 'not_interested' } });
    expect(res.statusCode).toBe(400);
    expect(parseXml((await as(u, url)).body).ratings_item.user_rating).toBe('5');
    res = await as(u, url, { method: 'POST', query: { method: 'PUT', rating: 'not_interested' } });
    expect(res.statusCode).toBe(200);
    const body = (await as(u, url)).body;
    expect(body).toContain('<user_rating value="not_interested"/>');
    const json = JSON.parse((await as(u, url, { query: { output: 'json' } })).body);
    expect(json.ratings_item.user_rating).toEqual({ value: 'not_interested' });

    res = await as(u, url, { method: 'PUT', form: { rating: 'no_opinion' } });
    expect(res.statusCode).toBe(200);
    expect((await as(u, url)).statusCode).toBe(404);
    // Clearing what is not rated is no error; a new POST works again.
    expect((await as(u, url, { method: 'PUT', form: { rating: 'no_opinion' } })).statusCode).toBe(200);
    expect((await rate(u, d, '3')).statusCode).toBe(201);
  });

  it('answers actual and predicted together for title_refs, in their shape', async () => {
    const u = await subscriber();
    const [e, f] = [movies[4]!, movies[5]!];
    await rate(u, e, '5');
    const res = await as(u, `/users/${u.uid}/ratings/title`, {
      query: { title_refs: `${ref(e)},${ref(f)},${svc.baseUrl}/catalog/titles/movies/1` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = parseXml(res.body).ratings.ratings_item;
    expect(items).toHaveLength(2);
    expect(items.map((i: Xml) => i.id)).toEqual(
      [e, f].map((id) => `${svc.baseUrl}/users/${u.uid}/ratings/title/${id}`),
    );
    expect(items[0].user_rating).toBe('5');
    expect(items[1].user_rating).toBeUndefined();
    for (const i of items) expect(i.predicted_rating).toMatch(/^[1-5]\.\d$/);
    expect(items[0].link[0]).toMatchObject({ href: ref(e), rel: 'http://schemas.netflix.com/catalog/title' });
    expect(childNames(res.body, 'ratings_item')).toEqual([...PREDICTED_TITLE_CHILDREN, 'user_rating']);
    // The historical id is itself a resource.
    const one = await as(u, `/users/${u.uid}/ratings/title/${e}`);
    expect(parseXml(one.body).ratings_item).toMatchObject({ user_rating: '5' });

    const predicted = await as(u, `/users/${u.uid}/ratings/title/predicted`, {
      query: { title_refs: `${ref(e)},${ref(f)}` },
    });
    expect(predicted.statusCode).toBe(200);
    const p = parseXml(predicted.body).ratings.ratings_item;
    expect(p).toHaveLength(2);
    for (const i of p) {
      expect(i.user_rating).toBeUndefined();
      expect(i.predicted_rating).toMatch(/^[1-5]\.\d$/);
    }
    const actualRefs = parseXml((await as(u, actual(u), { query: { title_refs: `${ref(e)},${ref(f)}` } })).body).ratings
      .ratings_item;
    expect(actualRefs.map((i: Xml) => [i.user_rating, i.predicted_rating])).toEqual([
      ['5', undefined],
      [undefined, undefined],
    ]);

    for (const path of ['', '/predicted']) {
      const missing = await as(u, `/users/${u.uid}/ratings/title${path}`);
      expect([missing.statusCode, status(missing.body).message]).toEqual([400, 'title_refs is required']);
    }
    const tooMany = await as(u, `/users/${u.uid}/ratings/title`, {
      method: 'POST',
      form: { method: 'GET', title_refs: Array.from({ length: 501 }, () => ref(e)).join(',') },
    });
    expect([tooMany.statusCode, status(tooMany.body).message]).toEqual([400, 'title_refs is invalid']);
  });

  it('lists the subscriber’s ratings newest first, paged', async () => {
    const u = await subscriber();
    const picks = movies.slice(10, 15);
    const base = Math.floor(Date.now() / 1000);
    for (const [i, id] of picks.entries()) {
      svc.clock.now = base + i;
      expect((await rate(u, id, String((i % 5) + 1))).statusCode).toBe(201);
    }
    svc.clock.now = undefined;
    const res = await as(u, actual(u));
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'ratings')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'ratings_item',
    ]);
    const list = parseXml(res.body).ratings;
    expect(list.number_of_results).toBe('5');
    expect(list.ratings_item.map((i: Xml) => Number(/\/(\d+)$/.exec(i.id)![1]))).toEqual([...picks].reverse());
    const page = parseXml((await as(u, actual(u), { query: { start_index: '1', max_results: '2' } })).body).ratings;
    expect([page.start_index, page.results_per_page]).toEqual(['1', '2']);
    expect(page.ratings_item.map((i: Xml) => i.user_rating)).toEqual(['4', '3']);
    expect(parseXml((await as(u, actual(u), { query: { max_results: '9999' } })).body).ratings.results_per_page).toBe(
      '500',
    );
    const out = await as(u, actual(u), { query: { start_index: '5' } });
    expect([out.statusCode, status(out.body).sub_code]).toEqual([400, '120']);
    const empty = await subscriber();
    expect(parseXml((await as(empty, actual(empty))).body).ratings.number_of_results).toBe('0');
  });

  it('serves actual and predicted ratings as Atom feeds, signed or with the feed token', async () => {
    const u = await subscriber();
    const picks = movies.slice(20, 23);
    for (const id of picks) await rate(u, id, '3');
    for (const options of [{ query: { output: 'atom' } }, { headers: { accept: 'application/atom+xml' } }]) {
      const res = await as(u, actual(u), options);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      expect(res.body).toContain(ATOM);
      const entries = arr(parseXml(res.body).feed.entry);
      expect(entries).toHaveLength(3);
      expect(entries[0].link[0].href).toBe(ref(picks[2]!));
      expect(entries[0].updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const predicted = await as(u, `/users/${u.uid}/ratings/title/predicted`, {
      query: { output: 'atom', title_refs: picks.map(ref).join(',') },
    });
    expect(predicted.body).toContain(ATOM);
    expect(arr(parseXml(predicted.body).feed.entry)).toHaveLength(3);
    // Unsigned: consumer key and the subscriber's feed token.
    const feed = await call(svc, actual(u), { auth: 'key', query: { feed_token: u.feedToken, output: 'atom' } });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(arr(parseXml(feed.body).feed.entry)).toHaveLength(3);
    expect(
      (await call(svc, actual(u), { auth: 'key', query: { feed_token: 'wrong', output: 'atom' } })).statusCode,
    ).toBe(403);
    expect(
      (await call(svc, `${actual(u)}/${picks[0]}`, { auth: 'key', query: { feed_token: u.feedToken } })).statusCode,
    ).toBe(400);
  });

  it('refuses another subscriber’s ratings with 403', async () => {
    const u = await subscriber();
    const other = await subscriber();
    const g = movies[30]!;
    const paths: Array<[string, CallOptions]> = [
      [`/users/${other.uid}/ratings`, {}],
      [`/users/${other.uid}/ratings/title`, { query: { title_refs: ref(g) } }],
      [`/users/${other.uid}/ratings/title/${g}`, {}],
      [`/users/${other.uid}/ratings/title/actual`, {}],
      [`/users/${other.uid}/ratings/title/actual`, { method: 'POST', form: { title_ref: ref(g), rating: '3' } }],
      [`/users/${other.uid}/ratings/title/actual/${g}`, {}],
      [`/users/${other.uid}/ratings/title/actual/${g}`, { method: 'PUT', form: { rating: '3' } }],
      [`/users/${other.uid}/ratings/title/actual/${g}`, { method: 'POST', form: { rating: '3' } }],
      [`/users/${other.uid}/ratings/title/predicted`, { query: { title_refs: ref(g) } }],
    ];
    for (const [path, options] of paths) {
      const res = await as(u, path, options);
      expect(res.statusCode, path).toBe(403);
      expect(status(res.body).message).toBe('User ID access token mismatch');
    }
    const index = parseXml((await as(u, `/users/${u.uid}/ratings`)).body).resource.link;
    expect(index.map((l: Xml) => l.title)).toEqual(['title ratings', 'actual ratings', 'predicted ratings']);
  });
});
