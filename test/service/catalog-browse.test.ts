import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENRES } from '../../shared/protocol/index.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml, type Xml } from '../helpers/xml.ts';

/** `GET /catalog/titles?genre=…` (the browse extension): filters, paging, order and errors, on both databases. */
describe.each(DATABASES)('browsing titles by genre on %s', (kind) => {
  let svc: TestService;
  const NOW = 1_795_000_000;
  beforeAll(async () => {
    svc = await startTestService(kind);
    svc.clock.now = NOW;
  });
  afterAll(() => svc.close());

  const get = (query: Record<string, string>) => call(svc, '/catalog/titles', { query, timestamp: NOW });
  const browse = async (query: Record<string, string>) => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(200);
    return parseXml(res.body).catalog_titles;
  };
  const genresOf = (t: Xml) =>
    (t.category as Xml[]).filter((c) => c.scheme === `${svc.baseUrl}/categories/genres`).map((c) => c.term);
  const idOf = (url: string) => Number(url.slice(url.lastIndexOf('/') + 1));

  /** Movies and series of a genre in the database, optionally of one type or streaming/shipping at NOW. */
  async function expectedIds(
    genre: string,
    options: { type?: 'movie' | 'series'; availableNow?: boolean } = {},
  ): Promise<number[]> {
    let q = svc.db.kysely
      .selectFrom('titles')
      .innerJoin('title_genres', 'title_genres.title_id', 'titles.id')
      .select('titles.id')
      .where('title_genres.genre', '=', genre)
      .where('titles.type', 'in', options.type ? [options.type] : ['movie', 'series']);
    if (options.availableNow) {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('availability')
            .select('title_id')
            .whereRef('availability.title_id', '=', 'titles.id')
            .where('available_from', '<=', NOW)
            .where((w) => w.or([w('available_until', 'is', null), w('available_until', '>', NOW)])),
        ),
      );
    }
    return (await q.execute()).map((r) => r.id).sort((a, b) => a - b);
  }

  /** Every page of a browse, walked by start_index. */
  async function allPages(query: Record<string, string>): Promise<{ titles: Xml[]; total: number }> {
    const titles: Xml[] = [];
    let total = 0;
    for (let start = 0; start === 0 || start < total; start += 100) {
      const page = await browse({ ...query, max_results: '100', start_index: String(start) });
      total = Number(page.number_of_results);
      titles.push(...(page.catalog_title ?? []));
    }
    return { titles, total };
  }

  it('lists every movie and series of a genre, best rated first, each carrying that genre', async () => {
    const { titles, total } = await allPages({ genre: 'Drama' });
    const expected = await expectedIds('Drama');
    expect(expected.length).toBeGreaterThan(25);
    expect(total).toBe(expected.length);
    expect(titles.map((t) => idOf(t.id)).sort((a, b) => a - b)).toEqual(expected);
    for (const t of titles) expect(genresOf(t)).toContain('Drama');
    const ratings = titles.map((t) => Number(t.average_rating ?? 0));
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });

  it('includes series as well as movies, and title_type keeps one of them', async () => {
    const genre = 'Television';
    const all = await allPages({ genre });
    const urls = all.titles.map((t) => t.id as string);
    expect(urls.some((u) => u.includes('/series/'))).toBe(true);
    const series = await allPages({ genre, title_type: 'series' });
    expect(series.total).toBe((await expectedIds(genre, { type: 'series' })).length);
    for (const t of series.titles) expect(t.id).toMatch(/\/catalog\/titles\/series\/\d+$/);
    const movies = await allPages({ genre: 'Comedy', title_type: 'movie' });
    expect(movies.total).toBe((await expectedIds('Comedy', { type: 'movie' })).length);
    for (const t of movies.titles) expect(t.id).toMatch(/\/catalog\/titles\/movies\/\d+$/);
  });

  it('available_now=true keeps titles with a delivery window open now', async () => {
    const { titles, total } = await allPages({ genre: 'Comedy', available_now: 'true' });
    const expected = await expectedIds('Comedy', { availableNow: true });
    expect(expected.length).toBeLessThan((await expectedIds('Comedy')).length);
    expect(total).toBe(expected.length);
    expect(titles.map((t) => idOf(t.id)).sort((a, b) => a - b)).toEqual(expected);
    expect((await browse({ genre: 'Comedy', available_now: 'false' })).number_of_results).toBe(
      String((await expectedIds('Comedy')).length),
    );
  });

  it('pages by start_index and max_results without repeating a title', async () => {
    const page1 = await browse({ genre: 'Drama', max_results: '10' });
    const page2 = await browse({ genre: 'Drama', max_results: '10', start_index: '10' });
    expect(page1.catalog_title).toHaveLength(10);
    expect(page2.start_index).toBe('10');
    expect(page2.number_of_results).toBe(page1.number_of_results);
    const ids = [...page1.catalog_title, ...page2.catalog_title].map((t: Xml) => t.id);
    expect(new Set(ids).size).toBe(20);
    const past = await get({ genre: 'Drama', start_index: page1.number_of_results });
    expect(past.statusCode).toBe(400);
  });

  it('combines a term with a genre: titles matching both', async () => {
    const all = await allPages({ genre: 'Drama' });
    const word = /^[a-z]{4,}$/i;
    const sample = all.titles
      .map((t) => (t.title.regular as string).split(' ').find((w) => word.test(w)))
      .find(Boolean)!;
    const both = await allPages({ genre: 'Drama', term: sample });
    expect(both.total).toBeGreaterThan(0);
    for (const t of both.titles) {
      expect(t.title.regular).toMatch(new RegExp(`\\b${sample}`, 'i'));
      expect(genresOf(t)).toContain('Drama');
    }
    const termOnly = Number((await browse({ term: sample })).number_of_results);
    expect(both.total).toBeLessThanOrEqual(termOnly);
  });

  it('every genre of /categories/genres can be browsed by its exact term', async () => {
    for (const genre of GENRES) {
      const page = await browse({ genre, max_results: '1' });
      expect(Number(page.number_of_results), genre).toBe((await expectedIds(genre)).length);
    }
  });

  it('refuses an unknown genre, title_type or available_now with a 400 naming the parameter', async () => {
    for (const [query, message] of [
      [{ genre: 'drama' }, 'genre is invalid'],
      [{ genre: 'Drama', title_type: 'program' }, 'title_type is invalid'],
      [{ genre: 'Drama', available_now: 'yes' }, 'available_now is invalid'],
    ] as const) {
      const res = await get(query);
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status).toMatchObject({ status_code: '400', message });
    }
  });

  it('without term and genre it stays 400 "term is required", whatever other filter is given', async () => {
    for (const query of [{}, { title_type: 'movie' }, { available_now: 'true' }, { genre: ' ' }] as Array<
      Record<string, string>
    >) {
      const res = await get(query);
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status).toMatchObject({ status_code: '400', message: 'term is required' });
    }
  });

  it('answers JSON too', async () => {
    const res = await get({ genre: 'Horror', max_results: '2', output: 'json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    expect(Number(doc.catalog_titles.number_of_results)).toBe((await expectedIds('Horror')).length);
  });
});
