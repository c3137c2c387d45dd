import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offeredFromTomorrow, offeredWithNoEnd } from '../helpers/catalog-picks.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, parseXml, type Xml } from '../helpers/xml.ts';

const STATES = '/categories/title_states';
const FORMATS = '/categories/title_formats';

describe.each(DATABASES)('title states on %s', (kind) => {
  let svc: TestService;
  /** Streams now with no end and has a DVD window open now. */
  let both: number;
  let futureInstant: number;
  let discOnly: number;

  beforeAll(async () => {
    svc = await startTestService(kind);
    const now = Math.floor(Date.now() / 1000);
    const k = svc.db.kysely;
    const open = (format: string) => offeredWithNoEnd(svc.db, format, now);
    // The first by id: limit(1) lets SQLite stop there (without it, 2.7 s of matching every movie).
    const movie = () => k.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id').limit(1);
    both = (await movie().where('id', 'in', open('instant')).where('id', 'in', open('DVD')).executeTakeFirstOrThrow())
      .id;
    futureInstant = (
      await movie()
        .where('id', 'in', offeredFromTomorrow(svc.db, 'instant', now))
        .executeTakeFirstOrThrow()
    ).id;
    discOnly = (
      await movie()
        .where('id', 'not in', k.selectFrom('availability').select('title_id').where('format', '=', 'instant'))
        .where('id', 'in', open('DVD'))
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => svc.close());

  const subscriber = (canInstantWatch = true) => newSubscriber(svc, { firstName: 'T', lastName: 'S', canInstantWatch });
  const ref = (id: number) => `${svc.baseUrl}/catalog/titles/movies/${id}`;
  const as = (u: TestSubscriber, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: u.token });
  async function states(u: TestSubscriber, refs: string[]): Promise<Xml[]> {
    const res = await as(u, `/users/${u.uid}/title_states`, { query: { title_refs: refs.join(',') } });
    expect(res.statusCode, res.body).toBe(200);
    return parseXml(res.body).title_states.title_state;
  }
  /** Per queue (by link title): the link, the format term and the state terms in order. */
  const summary = (state: Xml) =>
    Object.fromEntries(
      (state.title_state_item ?? []).map((item: Xml) => {
        const cats: Xml[] = item.format.category;
        return [
          item.link[0].title,
          {
            link: item.link[0],
            format: cats.filter((c) => c.scheme.endsWith(FORMATS)).map((c) => c.term),
            states: cats.filter((c) => c.scheme.endsWith(STATES)).map((c) => c.term),
            preferred: item.format.preferred_format,
          },
        ];
      }),
    );

  it('answers one title_state per ref with an item per queue, in the historical shape', async () => {
    const u = await subscriber();
    const res = await as(u, `/users/${u.uid}/title_states`, {
      query: { title_refs: [ref(both), ref(discOnly), `${svc.baseUrl}/catalog/titles/movies/1`].join(',') },
    });
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'title_states')).toEqual(['url_template', 'title_state']);
    expect(childNames(res.body, 'title_state')).toEqual(['link', 'title_state_item']);
    expect(childNames(res.body, 'title_state_item')).toEqual(['link', 'format']);
    const doc = parseXml(res.body).title_states;
    expect(doc.url_template).toBe(`${svc.baseUrl}/users/${u.uid}/title_states?{-join|&|title_refs}`);
    const [a, b, unknown] = doc.title_state;
    expect(a.link[0]).toMatchObject({ href: ref(both), rel: 'http://schemas.netflix.com/catalog/title' });
    const s = summary(a);
    expect(Object.keys(s)).toEqual(['instant queue', 'disc queue']);
    expect(s['instant queue']).toMatchObject({ format: ['instant'], states: ['Play', 'Add'] });
    expect(s['instant queue'].link).toMatchObject({
      href: `${svc.baseUrl}/users/${u.uid}/queues/instant`,
      rel: 'http://schemas.netflix.com/queues.instant',
    });
    expect(s['disc queue']).toMatchObject({ format: ['DVD'], states: ['Add'], preferred: 'true' });
    expect(s['disc queue'].link).toMatchObject({
      href: `${svc.baseUrl}/users/${u.uid}/queues/disc`,
      rel: 'http://schemas.netflix.com/queues.disc',
    });
    const d = summary(b);
    expect(d['instant queue'].states).toEqual([]);
    expect(d['disc queue'].states).toEqual(['Add']);
    // An unknown ref still gets its title_state, with nothing to do.
    expect(unknown.link[0].href).toBe(`${svc.baseUrl}/catalog/titles/movies/1`);
    expect(unknown.title_state_item).toBeUndefined();
  });

  it('shows In Queue and Saved with a link to the queue entry once queued', async () => {
    const u = await subscriber();
    expect(
      (await as(u, `/users/${u.uid}/queues/instant`, { method: 'POST', form: { title_ref: ref(both) } })).statusCode,
    ).toBe(201);
    expect(
      (await as(u, `/users/${u.uid}/queues/instant`, { method: 'POST', form: { title_ref: ref(futureInstant) } }))
        .statusCode,
    ).toBe(201);
    const [a, f] = await states(u, [ref(both), ref(futureInstant)]);
    const s = summary(a);
    expect(s['instant queue'].states).toEqual(['In Queue', 'Play']);
    expect(s['instant queue'].link.href).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/available/1/${both}`);
    expect(s['instant queue'].link.rel).toContain('item');
    expect(s['disc queue'].states).toEqual(['Add']);
    const fs = summary(f);
    expect(fs['instant queue'].states).toEqual(['Saved']);
    expect(fs['instant queue'].link.href).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/saved/${futureInstant}`);
  });

  it('treats a series as its seasons: queued once a season is', async () => {
    const u = await subscriber();
    const now = Math.floor(Date.now() / 1000);
    const k = svc.db.kysely;
    const season = await k
      .selectFrom('titles')
      .select(['id', 'parent_id'])
      .where('type', '=', 'season')
      .where('id', 'in', offeredWithNoEnd(svc.db, 'instant', now))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const seriesRef = `${svc.baseUrl}/catalog/titles/series/${season.parent_id}`;
    expect(summary((await states(u, [seriesRef]))[0])['instant queue'].states).toContain('Add');
    const seasonRef = `${svc.baseUrl}/catalog/titles/series/${season.parent_id}/seasons/${season.id}`;
    expect(
      (await as(u, `/users/${u.uid}/queues/instant`, { method: 'POST', form: { title_ref: seasonRef } })).statusCode,
    ).toBe(201);
    const s = summary((await states(u, [seriesRef]))[0]);
    expect(s['instant queue'].states[0]).toBe('In Queue');
    expect(s['instant queue'].link.href).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/available/1/${season.id}`);
  });

  it('offers no Play to a subscriber who cannot watch instantly', async () => {
    const u = await subscriber(false);
    const [a] = await states(u, [ref(both)]);
    expect(summary(a)['instant queue'].states).toEqual(['Add']);
  });

  it('refuses a missing title_refs (400) and another subscriber (403)', async () => {
    const u = await subscriber();
    const missing = await as(u, `/users/${u.uid}/title_states`);
    expect([missing.statusCode, parseXml(missing.body).status.message]).toEqual([400, 'title_refs is required']);
    const other = await subscriber();
    const res = await as(u, `/users/${other.uid}/title_states`, { query: { title_refs: ref(both) } });
    expect([res.statusCode, parseXml(res.body).status.message]).toEqual([403, 'User ID access token mismatch']);
  });
});
