import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, parseXml, PREDICTED_TITLE_CHILDREN, type Xml } from '../helpers/xml.ts';

const arr = (x: Xml): Xml[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const idOf = (url: string) => Number(/\/(\d+)$/.exec(url)![1]);

describe.each(DATABASES)('recommendations on %s', (kind) => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService(kind);
  });
  afterAll(() => svc.close());

  const subscriber = () => newSubscriber(svc, { firstName: 'Reco', lastName: 'Mend' });
  const as = (u: TestSubscriber, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: u.token });
  const recs = async (u: TestSubscriber, query: Record<string, string> = {}) => {
    const res = await as(u, `/users/${u.uid}/recommendations`, { query });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, list: parseXml(res.body).recommendations };
  };

  it('recommends titles best predicted first, in the historical shape', async () => {
    const u = await subscriber();
    const { body, list } = await recs(u);
    expect(childNames(body, 'recommendations')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'recommendation',
    ]);
    expect(list.url_template).toBe(
      `${svc.baseUrl}/users/${u.uid}/recommendations?{-join|&|start_index|max_results|expand}`,
    );
    expect(Number(list.number_of_results)).toBeGreaterThan(25);
    expect([list.start_index, list.results_per_page]).toEqual(['0', '25']);
    const items = list.recommendation;
    expect(items).toHaveLength(25);
    const predicted = items.map((i: Xml) => Number(i.predicted_rating));
    expect([...predicted].sort((a, b) => b - a)).toEqual(predicted);
    for (const i of items) {
      expect(i.id).toBe(`${svc.baseUrl}/users/${u.uid}/recommendations/${idOf(i.link[0].href)}`);
      expect(i.link[0].rel).toBe('http://schemas.netflix.com/catalog/title');
      expect(i.link[0].href).toMatch(/\/catalog\/titles\/(movies|series)\/\d+$/);
      expect(i.predicted_rating).toMatch(/^[1-5]\.\d$/);
      expect(i.title.regular).toBeTruthy();
    }
    expect(childNames(body, 'recommendation')).toEqual([...PREDICTED_TITLE_CHILDREN]);
    const expanded = await recs(u, { expand: 'synopsis', max_results: '1' });
    expect(expanded.body).toContain('<synopsis>');
  });

  it('pages with start_index and max_results (capped at 500)', async () => {
    const u = await subscriber();
    const all = (await recs(u, { max_results: '10' })).list.recommendation.map((i: Xml) => i.id);
    const second = (await recs(u, { start_index: '5', max_results: '5' })).list;
    expect([second.start_index, second.results_per_page]).toEqual(['5', '5']);
    expect(second.recommendation.map((i: Xml) => i.id)).toEqual(all.slice(5, 10));
    const big = (await recs(u, { max_results: '100000' })).list;
    expect(big.results_per_page).toBe('500');
    expect(arr(big.recommendation)).toHaveLength(Math.min(500, Number(big.number_of_results)));
    for (const [query, sub] of [
      [{ start_index: big.number_of_results }, '120'],
      [{ max_results: '0' }, '120'],
      [{ start_index: '-1' }, '120'],
    ] as const) {
      const res = await as(u, `/users/${u.uid}/recommendations`, { query });
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status.sub_code).toBe(sub);
    }
  });

  it('leaves out titles the subscriber rated (even not interested) or queued', async () => {
    const u = await subscriber();
    const first = (await recs(u)).list.recommendation.map((i: Xml) => i.link[0].href as string);
    const [a, b, c] = first;
    expect(
      (await as(u, `/users/${u.uid}/ratings/title/actual`, { method: 'POST', form: { title_ref: a!, rating: '5' } }))
        .statusCode,
    ).toBe(201);
    expect(
      (
        await as(u, `/users/${u.uid}/ratings/title/actual`, {
          method: 'POST',
          form: { title_ref: b!, rating: 'not_interested' },
        })
      ).statusCode,
    ).toBe(201);
    const queued = await as(u, `/users/${u.uid}/queues/disc`, { method: 'POST', form: { title_ref: c! } });
    expect(queued.statusCode, queued.body).toBe(201);
    const after = (await recs(u, { max_results: '500' })).list.recommendation.map((i: Xml) => i.link[0].href);
    for (const gone of [a, b, c]) expect(after).not.toContain(gone);
  });

  it('serves an Atom feed, signed or with the feed token', async () => {
    const u = await subscriber();
    const variants: CallOptions[] = [
      { query: { output: 'atom', max_results: '7' } },
      { query: { max_results: '7' }, headers: { accept: 'application/atom+xml' } },
    ];
    for (const options of variants) {
      const res = await as(u, `/users/${u.uid}/recommendations`, options);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      expect(res.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
      const feed = parseXml(res.body).feed;
      expect(arr(feed.entry)).toHaveLength(7);
      expect(arr(feed.entry)[0].id).toMatch(new RegExp(`/users/${u.uid}/recommendations/\\d+$`));
      expect(arr(feed.entry)[0].link[0].href).toMatch(/\/catalog\/titles\/(movies|series)\/\d+$/);
    }
    const unsigned = await call(svc, `/users/${u.uid}/recommendations`, {
      auth: 'key',
      query: { feed_token: u.feedToken, output: 'atom' },
    });
    expect(unsigned.statusCode, unsigned.body).toBe(200);
    expect(arr(parseXml(unsigned.body).feed.entry)).toHaveLength(25);
    const pox = await call(svc, `/users/${u.uid}/recommendations`, { auth: 'key', query: { feed_token: u.feedToken } });
    expect(parseXml(pox.body).recommendations.recommendation).toHaveLength(25);
  });

  it('refuses another subscriber’s recommendations with 403', async () => {
    const u = await subscriber();
    const other = await subscriber();
    const res = await as(u, `/users/${other.uid}/recommendations`);
    expect(res.statusCode).toBe(403);
    expect(parseXml(res.body).status.message).toBe('User ID access token mismatch');
    expect(
      (await call(svc, `/users/${other.uid}/recommendations`, { auth: 'key', query: { feed_token: u.feedToken } }))
        .statusCode,
    ).toBe(403);
  });
});
