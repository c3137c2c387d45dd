import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENRES } from '../../shared/protocol/index.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { linksByTitle, parseXml } from '../helpers/xml.ts';

describe.each(DATABASES)('catalog search and categories on %s', (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(kind);
  });
  afterAll(() => svc.close());

  it('GET /catalog is only links to its children', async () => {
    const res = await call(svc, '/catalog');
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(Object.keys(doc.catalog)).toEqual(['link']);
    expect(doc.catalog.link.map((l: { href: string }) => l.href)).toContain(`${svc.baseUrl}/catalog/titles`);
  });

  it('searching by term returns real titles with box art and subresource links', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith('<?xml version="1.0" standalone="yes"?><catalog_titles>')).toBe(true);
    const doc = parseXml(res.body).catalog_titles;
    expect(Number(doc.number_of_results)).toBeGreaterThan(0);
    const first = doc.catalog_title[0];
    expect(first.title.regular).toMatch(/dark knight/i);
    expect(first.id).toMatch(new RegExp(`^${svc.baseUrl}/catalog/titles/(movies|series)/\\d+$`));
    expect(first.box_art.small).toBe(first.box_art.small.replace(/\/(small|medium|large)\//, '/small/'));
    const links = linksByTitle(first);
    for (const name of [
      'synopsis',
      'formats',
      'screen formats',
      'languages and audio',
      'cast',
      'directors',
      'similars',
      'awards',
    ]) {
      expect(links[name]?.href).toMatch(new RegExp(`^${first.id}/`));
    }
    expect(links.synopsis.rel).toBe('http://schemas.netflix.com/catalog/titles/synopsis');
    expect(first.category.some((c: { scheme: string }) => c.scheme === `${svc.baseUrl}/categories/genres`)).toBe(true);
  });

  it('box art links serve SVG images without signing', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight' } });
    const art = parseXml(res.body).catalog_titles.catalog_title[0].box_art;
    for (const size of ['small', 'medium', 'large']) {
      const img = await call(svc, new URL(art[size]).pathname, { auth: 'none' });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/svg+xml');
      expect(img.body).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });

  it('pages through results with start_index and max_results, stable across pages', async () => {
    const page1 = parseXml(
      (await call(svc, '/catalog/titles', { query: { term: 'the', max_results: '5' } })).body,
    ).catalog_titles;
    const page2 = parseXml(
      (await call(svc, '/catalog/titles', { query: { term: 'the', max_results: '5', start_index: '5' } })).body,
    ).catalog_titles;
    expect(page1.catalog_title).toHaveLength(5);
    expect(page1.results_per_page).toBe('5');
    expect(page2.start_index).toBe('5');
    expect(page1.number_of_results).toBe(page2.number_of_results);
    const ids = [...page1.catalog_title, ...page2.catalog_title].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(10);
  });

  it('caps max_results at 100 for catalog searches', async () => {
    const doc = parseXml(
      (await call(svc, '/catalog/titles', { query: { term: 'the', max_results: '1000' } })).body,
    ).catalog_titles;
    expect(doc.results_per_page).toBe('100');
    expect(doc.catalog_title.length).toBeLessThanOrEqual(100);
  });

  it('a search without term is 400 "term is required"', async () => {
    const res = await call(svc, '/catalog/titles');
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status).toMatchObject({ status_code: '400', message: 'term is required' });
  });

  it('a term matching nothing is an empty page, not an error', async () => {
    const doc = parseXml((await call(svc, '/catalog/titles', { query: { term: 'zzqxjvwk' } })).body).catalog_titles;
    expect(doc.number_of_results).toBe('0');
    expect(doc.catalog_title).toBeUndefined();
  });

  it('expands every result of a search (one level for collections)', async () => {
    const res = await call(svc, '/catalog/titles', {
      query: { term: 'dark knight', max_results: '3', expand: 'synopsis,cast' },
    });
    const titles = parseXml(res.body).catalog_titles.catalog_title;
    for (const t of titles) {
      const links = linksByTitle(t);
      expect(typeof links.synopsis.synopsis).toBe('string');
      expect(links.cast.people.link.length).toBeGreaterThan(0);
      expect(links.cast.people.link[0].href).toMatch(/\/catalog\/people\/\d+$/);
    }
  });

  it('autocomplete needs only the consumer key and returns title prefixes', async () => {
    const res = await call(svc, '/catalog/titles/autocomplete', { auth: 'key', query: { term: 'star' } });
    expect(res.statusCode).toBe(200);
    const items = parseXml(res.body).autocomplete.autocomplete_item;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.title.short).toMatch(/\bstar/i);
  });

  it('autocomplete without any consumer key is 401 Missing Required Consumer Key', async () => {
    const res = await call(svc, '/catalog/titles/autocomplete', { auth: 'none', query: { term: 'star' } });
    expect(res.statusCode).toBe(401);
    expect(parseXml(res.body).status.message).toBe('Missing Required Consumer Key');
  });

  it('lists every category scheme', async () => {
    for (const scheme of [
      'genres',
      'mpaa_ratings',
      'tv_ratings',
      'title_formats',
      'queue_availability',
      'title_states',
      'screen_formats',
      'languages',
      'audio',
      'award_types',
    ]) {
      const res = await call(svc, `/categories/${scheme}`);
      expect(res.statusCode).toBe(200);
      const items = parseXml(res.body).categories.category_item;
      expect(items.length).toBeGreaterThan(0);
      expect(items[0].scheme).toBe(`${svc.baseUrl}/categories/${scheme}`);
    }
    const genres = parseXml((await call(svc, '/categories/genres')).body).categories.category_item;
    expect(genres.map((g: { term: string }) => g.term)).toEqual([...GENRES]);
  });

  it('lists the schemes of title details, each holding every value the catalog uses', async () => {
    const served = async (scheme: string) => {
      const res = await call(svc, `/categories/${scheme}`);
      expect(res.statusCode, scheme).toBe(200);
      const items = [parseXml(res.body).categories.category_item].flat() as Array<{
        scheme: string;
        label: string;
        term: string;
      }>;
      for (const item of items) {
        expect(item.scheme).toBe(`${svc.baseUrl}/categories/${scheme}`);
        expect(item.label).toBe(item.term);
      }
      return new Set(items.map((i) => i.term));
    };
    const [screen, languages, audio, awards] = await Promise.all(
      ['screen_formats', 'languages', 'audio', 'award_types'].map(served),
    );
    const rows = await svc.db.kysely
      .selectFrom('title_details')
      .select(['screen_formats', 'languages_and_audio', 'awards'])
      .execute();
    const used = {
      screen: new Set<string>(),
      languages: new Set<string>(),
      audio: new Set<string>(),
      awards: new Set<string>(),
    };
    for (const r of rows) {
      for (const s of JSON.parse(r.screen_formats) as Array<{ screen_format: string }>)
        used.screen.add(s.screen_format);
      for (const l of JSON.parse(r.languages_and_audio) as Array<{ language: string; audio: string[] }>) {
        used.languages.add(l.language);
        for (const a of l.audio) used.audio.add(a);
      }
      for (const a of JSON.parse(r.awards) as Array<{ award: string }>) used.awards.add(a.award);
    }
    // Every value a title carries is listed (the lists may hold values no title has drawn yet).
    expect([...used.screen].filter((v) => !screen!.has(v))).toEqual([]);
    expect([...used.languages].filter((v) => !languages!.has(v))).toEqual([]);
    expect([...used.audio].filter((v) => !audio!.has(v))).toEqual([]);
    expect([...used.awards].filter((v) => !awards!.has(v))).toEqual([]);
    expect(used.screen.size).toBeGreaterThan(1);
    expect(used.awards.size).toBeGreaterThan(10);
    // A title's own categories point at a scheme that resolves and lists their term.
    const title = await svc.db.kysely
      .selectFrom('title_details')
      .innerJoin('titles', 'titles.id', 'title_details.title_id')
      .select('title_id')
      .where('awards', '!=', '[]')
      .where('titles.type', '=', 'movie')
      .orderBy('title_id')
      .executeTakeFirstOrThrow();
    const awardXml = parseXml((await call(svc, `/catalog/titles/movies/${title.title_id}/awards`)).body).awards;
    const first = [awardXml.award_winner ?? [], awardXml.award_nominee ?? []].flat()[0];
    const category = [first.category].flat()[0];
    expect(category.scheme).toBe(`${svc.baseUrl}/categories/award_types`);
    expect(awards!.has(category.term)).toBe(true);
  });

  it('an unknown category scheme is 404', async () => {
    const res = await call(svc, '/categories/moods');
    expect(res.statusCode).toBe(404);
    expect(parseXml(res.body).status.message).toBe('Resource not found');
  });
});
