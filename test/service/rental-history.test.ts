import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, ensureDemoSubscriber } from '../../service/data/demo/subscriber-account.ts';
import { planSubscriberActivity, seedSubscriberActivity } from '../../service/data/demo/subscriber.ts';
import { insertRentals, type NewRental } from '../../service/store/subscriber/history.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { getUser } from '../../service/store/subscriber/users.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { movieIds } from '../helpers/catalog-picks.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, linksByTitle, parseXml, type Xml } from '../helpers/xml.ts';

const DAY = 86_400;
const TITLE_REL = 'http://schemas.netflix.com/catalog/title';

describe.each(DATABASES)('rental history and at home on %s', (kind) => {
  let svc: TestService;
  let now: number;
  let movies: number[];

  /** w1–w3 instant watches, d1–d2 returned discs, d3 at home (see `history`). */
  let ids: Record<'w1' | 'w2' | 'w3' | 'd1' | 'd2' | 'd3', number>;
  let u: TestSubscriber;

  beforeAll(async () => {
    svc = await startTestService(kind);
    now = Math.floor(Date.now() / 1000);
    movies = await movieIds(svc.db, 10);
    const [w1, w2, w3, d1, d2, d3] = movies as [number, number, number, number, number, number];
    ids = { w1, w2, w3, d1, d2, d3 };
    u = await subscriber();
    const watch = (title_id: number, daysAgo: number): NewRental => ({
      title_id,
      format: 'instant',
      watched_date: now - daysAgo * DAY,
      viewed_time: 3_000 + daysAgo,
      shipped_date: null,
      returned_date: null,
    });
    const disc = (title_id: number, shippedAgo: number, returnedAgo: number | null): NewRental => ({
      title_id,
      format: 'DVD',
      shipped_date: now - shippedAgo * DAY,
      returned_date: returnedAgo === null ? null : now - returnedAgo * DAY,
      watched_date: null,
      viewed_time: null,
    });
    await insertRentals(svc.db, u.uid, [
      watch(w1, 10),
      watch(w2, 5),
      watch(w3, 1),
      disc(d1, 30, 25),
      disc(d2, 20, 3),
      disc(d3, 2, null),
    ]);
  });
  afterAll(() => svc.close());

  const subscriber = () => newSubscriber(svc, { firstName: 'H', lastName: 'User', acceptedTos: true });
  const as = (who: { token: Credentials }, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: who.token });
  const titleIdOf = (item: Xml) =>
    Number(/\/(\d+)$/.exec((item.link as Xml[]).find((l) => l.rel === TITLE_REL).href)![1]);
  async function history(path: string, query: Record<string, string> = {}): Promise<{ root: Xml; items: Xml[] }> {
    const res = await as(u, `/users/${u.uid}/${path}`, { query });
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    const root = doc.rental_history ?? doc.at_home;
    return { root, items: root.rental_history_item ?? root.at_home_item ?? [] };
  }

  it('renders the whole history newest first, with title fields and the rental dates', async () => {
    const res = await as(u, `/users/${u.uid}/rental_history`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(childNames(res.body, 'rental_history')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'rental_history_item',
    ]);
    const { root, items } = await history('rental_history');
    expect(root.url_template).toBe(
      `${svc.baseUrl}/users/${u.uid}/rental_history?{-join|&|start_index|max_results|updated_min|expand}`,
    );
    expect(root.number_of_results).toBe('6');
    expect(items.map(titleIdOf)).toEqual([ids.w3, ids.d3, ids.d2, ids.w2, ids.w1, ids.d1]);
    const base = `${svc.baseUrl}/users/${u.uid}/rental_history`;
    expect(items.map((i) => i.id)).toEqual([
      `${base}/watched/${ids.w3}`,
      `${base}/shipped/${ids.d3}`,
      `${base}/returned/${ids.d2}`,
      `${base}/watched/${ids.w2}`,
      `${base}/watched/${ids.w1}`,
      `${base}/returned/${ids.d1}`,
    ]);
    const [w3, d3, d2] = items;
    expect(w3.watched_date).toBe(String(now - DAY));
    expect(w3.viewed_time).toBe('3001');
    expect(w3.shipped_date).toBeUndefined();
    expect(d2.shipped_date).toBe(String(now - 20 * DAY));
    expect(d2.returned_date).toBe(String(now - 3 * DAY));
    expect(d2.watched_date).toBeUndefined();
    expect(d3.returned_date).toBeUndefined();
    // Title fields, with the title's format narrowed to the one rented.
    expect(w3.title.regular).toBeTruthy();
    expect(w3.box_art.small).toContain(`/${ids.w3}`);
    expect(linksByTitle(w3).synopsis.href).toBe(`${svc.baseUrl}/catalog/titles/movies/${ids.w3}/synopsis`);
    expect(w3.category.filter((c: Xml) => c.scheme.endsWith('/title_formats')).map((c: Xml) => c.term)).toEqual([
      'instant',
    ]);
    expect(d2.category.filter((c: Xml) => c.scheme.endsWith('/title_formats')).map((c: Xml) => c.term)).toEqual([
      'DVD',
    ]);
    const names = childNames(res.body, 'rental_history_item');
    expect(names.slice(0, 2)).toEqual(['id', 'link']);
    expect(names).toEqual(expect.arrayContaining(['title', 'box_art', 'category', 'watched_date', 'viewed_time']));
  });

  it('filters each view and orders it by its own date', async () => {
    const shipped = await history('rental_history/shipped');
    expect(shipped.items.map(titleIdOf)).toEqual([ids.d3, ids.d2, ids.d1]);
    expect(shipped.root.number_of_results).toBe('3');
    expect(shipped.root.url_template).toBe(
      `${svc.baseUrl}/users/${u.uid}/rental_history/shipped?{-join|&|start_index|max_results|updated_min|expand}`,
    );
    expect(shipped.items.map((i) => i.id)).toEqual(
      [ids.d3, ids.d2, ids.d1].map((id) => `${svc.baseUrl}/users/${u.uid}/rental_history/shipped/${id}`),
    );
    const returned = await history('rental_history/returned');
    expect(returned.items.map(titleIdOf)).toEqual([ids.d2, ids.d1]);
    expect(returned.items.every((i) => i.returned_date !== undefined)).toBe(true);
    const watched = await history('rental_history/watched');
    expect(watched.items.map(titleIdOf)).toEqual([ids.w3, ids.w2, ids.w1]);
    expect(
      watched.items.every(
        (i) => i.watched_date !== undefined && i.viewed_time !== undefined && i.shipped_date === undefined,
      ),
    ).toBe(true);
  });

  it('filters by updated_min and refuses a bad one', async () => {
    const since = String(now - 4 * DAY);
    expect((await history('rental_history', { updated_min: since })).items.map(titleIdOf)).toEqual([
      ids.w3,
      ids.d3,
      ids.d2,
    ]);
    const recent = await history('rental_history/watched', { updated_min: since });
    expect(recent.items.map(titleIdOf)).toEqual([ids.w3]);
    expect(recent.root.number_of_results).toBe('1');
    // A returned disc is updated when it came back, though it shipped long before.
    expect((await history('rental_history/shipped', { updated_min: since })).items.map(titleIdOf)).toEqual([
      ids.d3,
      ids.d2,
    ]);
    expect((await history('rental_history', { updated_min: String(now + DAY) })).root.number_of_results).toBe('0');
    for (const bad of ['yesterday', '-5', '1.5']) {
      const res = await as(u, `/users/${u.uid}/rental_history`, { query: { updated_min: bad } });
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status.message).toBe('updated_min is invalid');
    }
  });

  it('pages with start_index and max_results, and refuses bad paging with sub_code 120', async () => {
    const page = await history('rental_history', { start_index: '2', max_results: '2' });
    expect(page.items.map(titleIdOf)).toEqual([ids.d2, ids.w2]);
    expect([page.root.number_of_results, page.root.start_index, page.root.results_per_page]).toEqual(['6', '2', '2']);
    expect((await history('rental_history', { max_results: '9999' })).root.results_per_page).toBe('500');
    for (const query of [
      { start_index: '6' },
      { start_index: '-1' },
      { max_results: '0' },
      { max_results: 'ten' },
    ] as Array<Record<string, string>>) {
      const res = await as(u, `/users/${u.uid}/rental_history/watched`, { query });
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status.sub_code).toBe('120');
    }
    expect((await as(u, `/users/${u.uid}/at_home`, { query: { start_index: '1' } })).statusCode).toBe(400);
  });

  it('expands titles inside items', async () => {
    const { items } = await history('rental_history/watched', { expand: 'synopsis' });
    expect(linksByTitle(items[0]).synopsis.synopsis).toBeTruthy();
  });

  it('resolves item ids, 404 for a title not in that view', async () => {
    const res = await as(u, `/users/${u.uid}/rental_history/returned/${ids.d2}`);
    expect(res.statusCode).toBe(200);
    const item = parseXml(res.body).rental_history_item;
    expect(item.id).toBe(`${svc.baseUrl}/users/${u.uid}/rental_history/returned/${ids.d2}`);
    expect(item.returned_date).toBe(String(now - 3 * DAY));
    expect((await as(u, `/users/${u.uid}/rental_history/watched/${ids.d2}`)).statusCode).toBe(404);
    expect((await as(u, `/users/${u.uid}/rental_history/returned/${ids.d3}`)).statusCode).toBe(404);
    expect((await as(u, `/users/${u.uid}/rental_history/watched/nope`)).statusCode).toBe(404);
    expect((await as(u, `/users/${u.uid}/rental_history/borrowed`)).statusCode).toBe(404);
  });

  it('lists the discs at home with their shipped and arrival dates', async () => {
    const res = await as(u, `/users/${u.uid}/at_home`);
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'at_home')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'at_home_item',
    ]);
    const root = parseXml(res.body).at_home;
    expect(root.number_of_results).toBe('1');
    const [item] = root.at_home_item;
    expect(item.id).toBe(`${svc.baseUrl}/catalog/titles/movies/${ids.d3}`);
    expect(item.shipped_date).toBe(String(now - 2 * DAY));
    expect(Number(item.estimated_arrival_date)).toBeGreaterThan(now - 2 * DAY);
    expect(item.title.regular).toBeTruthy();
    expect(item.category.filter((c: Xml) => c.scheme.endsWith('/title_formats')).map((c: Xml) => c.term)).toEqual([
      'DVD',
    ]);
    const empty = await subscriber();
    const none = parseXml((await as(empty, `/users/${empty.uid}/at_home`)).body).at_home;
    expect(none.number_of_results).toBe('0');
    expect(none.at_home_item).toBeUndefined();
  });

  it('answers in Atom when asked, by parameter or Accept', async () => {
    const res = await as(u, `/users/${u.uid}/rental_history/watched`, { query: { output: 'atom' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const feed = parseXml(res.body).feed;
    expect(feed.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`${svc.baseUrl}/users/${u.uid}/rental_history/watched`);
    const entries = Array.isArray(feed.entry) ? feed.entry : [feed.entry];
    expect(entries.map((e: Xml) => e.id)).toEqual(
      [ids.w3, ids.w2, ids.w1].map((id) => `${svc.baseUrl}/users/${u.uid}/rental_history/watched/${id}`),
    );
    expect(entries[0].updated).toBe(new Date((now - DAY) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect(entries[0].link[0].href).toBe(`${svc.baseUrl}/catalog/titles/movies/${ids.w3}`);
    expect(feed.updated).toBe(entries[0].updated);

    const all = await as(u, `/users/${u.uid}/rental_history`, { headers: { accept: 'application/atom+xml' } });
    expect(all.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const allEntries = parseXml(all.body).feed.entry;
    expect(allEntries).toHaveLength(6);
    // The returned disc is dated by its return.
    expect(allEntries[2].updated).toBe(new Date((now - 3 * DAY) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));

    const home = await as(u, `/users/${u.uid}/at_home`, { query: { output: 'atom' } });
    expect(home.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(parseXml(home.body).feed.entry.link[0].href).toBe(`${svc.baseUrl}/catalog/titles/movies/${ids.d3}`);
    // Lists are not feeds.
    expect((await as(u, `/users/${u.uid}/lists`, { query: { output: 'atom' } })).headers['content-type']).toMatch(
      /^application\/xml/,
    );
  });

  it('is readable unsigned with the feed token, and by nobody else', async () => {
    const user = await getUser(svc.db, u.uid);
    for (const path of [
      'rental_history',
      'rental_history/shipped',
      'rental_history/returned',
      'rental_history/watched',
      'at_home',
    ]) {
      const res = await call(svc, `/users/${u.uid}/${path}`, {
        auth: 'key',
        query: { feed_token: user!.feed_token, output: 'atom' },
      });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
      const bad = await call(svc, `/users/${u.uid}/${path}`, { auth: 'key', query: { feed_token: 'wrong' } });
      expect(bad.statusCode).toBe(403);
    }
    // Lists are not feeds: a feed token does not open them.
    expect(
      (await call(svc, `/users/${u.uid}/lists`, { auth: 'key', query: { feed_token: user!.feed_token } })).statusCode,
    ).not.toBe(200);
  });

  it('is protected: another subscriber is refused with 403, no token with 400', async () => {
    const other = await subscriber();
    for (const path of [
      'rental_history',
      'rental_history/watched',
      'rental_history/shipped',
      'rental_history/returned',
      'at_home',
      `rental_history/watched/${ids.w1}`,
    ]) {
      const res = await as(other, `/users/${u.uid}/${path}`);
      expect(res.statusCode, path).toBe(403);
      expect(parseXml(res.body).status.message).toBe('User ID access token mismatch');
    }
    expect((await call(svc, `/users/${u.uid}/rental_history`)).statusCode).toBe(400);
    const empty = await history('rental_history').then(() => as(other, `/users/${other.uid}/rental_history`));
    expect(parseXml(empty.body).rental_history.number_of_results).toBe('0');
  });

  it('answers JSON with items as an array', async () => {
    const res = await as(u, `/users/${u.uid}/rental_history/returned`, { query: { output: 'json' } });
    const body = JSON.parse(res.body);
    expect(body.rental_history.rental_history_item).toHaveLength(2);
    expect(body.rental_history.rental_history_item[0].returned_date).toBe(String(now - 3 * DAY));
  });

  describe('the demo subscriber', () => {
    const rowsOf = async (uid: string) =>
      (
        await svc.db.kysely
          .selectFrom('rentals')
          .select(['title_id', 'format', 'shipped_date', 'returned_date', 'watched_date', 'viewed_time', 'updated'])
          .where('user_id', '=', uid)
          .orderBy('updated')
          .orderBy('title_id')
          .execute()
      ).map((r) => ({ ...r }));
    const listsOf = async (uid: string) => {
      const lists = await svc.db.kysely
        .selectFrom('lists')
        .select(['id', 'name', 'created'])
        .where('user_id', '=', uid)
        .orderBy('id')
        .execute();
      const out = [];
      for (const l of lists) {
        const items = await svc.db.kysely
          .selectFrom('list_items')
          .select('title_id')
          .where('list_id', '=', l.id)
          .orderBy('position')
          .execute();
        out.push({ name: l.name, created: Number(l.created), titles: items.map((i) => i.title_id) });
      }
      return out;
    };
    let demoId: string;

    beforeAll(async () => {
      await ensureDemoSubscriber(svc.db, now);
      await ensureDemoSubscriber(svc.db, now);
      demoId = (
        await svc.db.kysely.selectFrom('users').select('id').where('login', '=', DEMO_LOGIN).executeTakeFirstOrThrow()
      ).id;
    });

    it('gets about two years of history, two discs at home and three lists, once', async () => {
      const rows = await rowsOf(demoId);
      expect(rows).toHaveLength(40);
      const watches = rows.filter((r) => r.format === 'instant');
      const discs = rows.filter((r) => r.format !== 'instant');
      expect(watches.length).toBeGreaterThanOrEqual(15);
      expect(watches.every((r) => r.watched_date !== null && r.viewed_time! > 0 && r.shipped_date === null)).toBe(true);
      expect(
        discs.every((r) => r.shipped_date !== null && r.watched_date === null && ['DVD', 'Blu-ray'].includes(r.format)),
      ).toBe(true);
      expect(discs.filter((r) => r.returned_date === null)).toHaveLength(2);
      expect(discs.every((r) => r.returned_date === null || r.returned_date > r.shipped_date!)).toBe(true);
      expect(rows.every((r) => r.updated <= now && r.updated > now - 731 * DAY)).toBe(true);
      expect(rows[0]!.updated).toBeLessThan(now - 365 * DAY);
      const lists = await listsOf(demoId);
      expect(lists.map((l) => l.name)).toHaveLength(3);
      expect(new Set(lists.map((l) => l.name)).size).toBe(3);
      for (const l of lists) {
        expect(l.titles.length).toBeGreaterThanOrEqual(5);
        expect(l.titles.length).toBeLessThanOrEqual(12);
      }

      // Every title was offered in the format rented when it was rented.
      const windows = await svc.db.kysely
        .selectFrom('availability')
        .selectAll()
        .where(
          'title_id',
          'in',
          rows.map((r) => r.title_id),
        )
        .execute();
      for (const r of rows) {
        const at = r.watched_date ?? r.shipped_date!;
        const w = windows.find((x) => x.title_id === r.title_id && x.format === r.format);
        expect(
          w && w.available_from <= at && (w.available_until === null || w.available_until > at),
          `${r.title_id} ${r.format}`,
        ).toBe(true);
      }

      // Seeding again does nothing.
      expect(await seedSubscriberActivity(svc.db, demoId, now)).toBe(false);
      expect(await rowsOf(demoId)).toHaveLength(40);
      expect(await listsOf(demoId)).toHaveLength(3);
    });

    it('is deterministic: the same plan for the same catalog and time', async () => {
      const twin = await subscriber();
      expect(await seedSubscriberActivity(svc.db, twin.uid, now)).toBe(true);
      expect(await rowsOf(twin.uid)).toEqual(await rowsOf(demoId));
      expect(await listsOf(twin.uid)).toEqual(await listsOf(demoId));
    });

    it('plans nothing over an empty catalog (so seeding before the catalog loads writes nothing)', () => {
      expect(planSubscriberActivity([], now).rentals).toEqual([]);
    });

    it('is served by the API', async () => {
      const t = await issueAccessToken(svc.db, svc.consumer.key, demoId);
      const demo = { token: { key: t.token, secret: t.secret } };
      const all = parseXml(
        (await as(demo, `/users/${demoId}/rental_history`, { query: { max_results: '100' } })).body,
      ).rental_history;
      expect(all.number_of_results).toBe('40');
      expect(all.rental_history_item).toHaveLength(40);
      const dates = all.rental_history_item.map((i: Xml) =>
        Math.max(...['watched_date', 'shipped_date', 'returned_date'].map((n) => Number(i[n] ?? 0))),
      );
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      expect(parseXml((await as(demo, `/users/${demoId}/at_home`)).body).at_home.at_home_item).toHaveLength(2);
      const lists = parseXml((await as(demo, `/users/${demoId}/lists`)).body).lists;
      expect(lists.list).toHaveLength(3);
    });
  });
});
