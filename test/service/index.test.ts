import { bumpGeneration } from '../../service/store/catalog/generation.ts';
import { gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, linksByTitle, parseXml, type Xml } from '../helpers/xml.ts';

const ACTOR_REL = 'http://schemas.netflix.com/catalog/person.actor';
const DIRECTOR_REL = 'http://schemas.netflix.com/catalog/person.director';

/** The whole-catalog resources: /catalog/titles/index and /catalog/titles/full. */
describe.each(DATABASES)('catalog index and full on %s', (kind) => {
  let svc: TestService;
  let titleCount: number;
  /** A movie with both cast and director credits. */
  let movie: { id: number; title: string; release_year: number | null; updated: number };
  let directors: number[];
  let cast: number[];
  let index: LightMyRequestResponse;
  /** The index's items, parsed once. */
  let items: Xml[];

  beforeAll(async () => {
    svc = await startTestService(kind);
    const k = svc.db.kysely;
    const count = await k
      .selectFrom('titles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    titleCount = Number(count.n);
    const credited = (role: 'cast' | 'director') => k.selectFrom('credits').select('title_id').where('role', '=', role);
    movie = await k
      .selectFrom('titles')
      .select(['id', 'title', 'release_year', 'updated'])
      .where('type', '=', 'movie')
      .where('id', 'in', credited('director'))
      .where('id', 'in', credited('cast'))
      .orderBy('id')
      .limit(1) // the first is enough: without the limit SQLite matched every movie, 6 s of CPU
      .executeTakeFirstOrThrow();
    const credits = await k
      .selectFrom('credits')
      .select(['person_id', 'role'])
      .where('title_id', '=', movie.id)
      .orderBy('ordinal')
      .execute();
    directors = credits.filter((c) => c.role === 'director').map((c) => c.person_id);
    cast = credits.filter((c) => c.role === 'cast').map((c) => c.person_id);
    index = await call(svc, '/catalog/titles/index');
    items = parseXml(index.body).catalog_title_index.title_index_item;
  });
  afterAll(() => svc.close());

  const itemCount = (body: string, name: string) => body.split(`<${name}>`).length - 1;
  const movieId = () => `${svc.baseUrl}/catalog/titles/movies/${movie.id}`;

  it('the index streams catalog_title_index with one title_index_item per title in the database', () => {
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(index.body.startsWith('<?xml version="1.0" standalone="yes"?><catalog_title_index>')).toBe(true);
    expect(index.body.endsWith('</catalog_title_index>')).toBe(true);
    expect(titleCount).toBeGreaterThan(1000); // more than one streamed batch
    expect(itemCount(index.body, 'title_index_item')).toBe(titleCount);
    expect(items).toHaveLength(titleCount);
    expect(new Set(items.map((i: Xml) => i.id)).size).toBe(titleCount);
  });

  it('an index item has id, title as text, release_year, updated, categories, person links and delivery formats', () => {
    const item = items.find((i: Xml) => i.id === movieId());
    expect(item).toBeDefined();
    expect(item.title).toBe(movie.title);
    if (movie.release_year !== null) expect(item.release_year).toBe(String(movie.release_year));
    expect(item.updated).toBe(String(movie.updated));
    expect(item.category.some((c: Xml) => c.scheme === `${svc.baseUrl}/categories/genres`)).toBe(true);
    const people = (rel: string) => item.link.filter((l: Xml) => l.rel === rel).map((l: Xml) => l.href);
    expect(people(DIRECTOR_REL)).toEqual(directors.map((id) => `${svc.baseUrl}/catalog/people/${id}`));
    expect(people(ACTOR_REL)).toEqual(cast.map((id) => `${svc.baseUrl}/catalog/people/${id}`));
    expect(item.delivery_formats.availability.length).toBeGreaterThan(0);
    expect(item.delivery_formats.availability[0].category[0].scheme).toBe(`${svc.baseUrl}/categories/title_formats`);
  });

  it('every index item carries the same element set, in id order', () => {
    const allowed = new Set(['id', 'title', 'release_year', 'updated', 'category', 'link', 'delivery_formats']);
    const keys = new Set(items.flatMap((i) => Object.keys(i)));
    expect([...keys].filter((key) => !allowed.has(key))).toEqual([]);
    expect(
      items.filter(
        (i) =>
          typeof i.title !== 'string' || !/^\d+$/.test(i.updated) || !i.id.startsWith(`${svc.baseUrl}/catalog/titles/`),
      ),
    ).toEqual([]);
    const ids = items.map((i: Xml) => Number(i.id.split('/').pop()));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(childNames(index.body, 'title_index_item')).toEqual(expect.arrayContaining(['id', 'title', 'updated']));
  });

  it('the index person links resolve to the people they name', async () => {
    const res = await call(svc, `/catalog/people/${directors[0]}`);
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).person.id).toBe(`${svc.baseUrl}/catalog/people/${directors[0]}`);
  });

  it('the index is gzip-compressed on request and decompresses to the plain stream', async () => {
    const zipped = await call(svc, '/catalog/titles/index', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(index.rawPayload.length / 3);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(index.body);
  });

  it('the index has an ETag, and If-None-Match with it is 304 with an empty body', async () => {
    const etag = index.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const res = await call(svc, '/catalog/titles/index', { headers: { 'if-none-match': etag } });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    const zipped = await call(svc, '/catalog/titles/index', {
      headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' },
    });
    expect(zipped.statusCode).toBe(304);
    expect(zipped.rawPayload.length).toBe(0);
  });

  it('the index ETag changes when the catalog does', async () => {
    const k = svc.db.kysely;
    const newest = await k
      .selectFrom('titles')
      .select((eb) => eb.fn.max('updated').as('max'))
      .executeTakeFirstOrThrow();
    // An edited title is stamped with a newer `updated`; catalogs change only by a load, which bumps the generation.
    await k
      .updateTable('titles')
      .set({ updated: Number(newest.max) + 1 })
      .where('id', '=', movie.id)
      .execute();
    await bumpGeneration(svc.db);
    try {
      const res = await call(svc, '/catalog/titles/index', { headers: { 'if-none-match': '*' } });
      expect(res.statusCode).toBe(304);
      expect(res.headers.etag).not.toBe(index.headers.etag);
      const stale = await call(svc, '/catalog/titles/index', {
        headers: { 'if-none-match': index.headers.etag as string },
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toContain(`<updated>${Number(newest.max) + 1}</updated>`);
    } finally {
      await k.updateTable('titles').set({ updated: movie.updated }).where('id', '=', movie.id).execute();
      await bumpGeneration(svc.db);
    }
  });

  it('output=json streams valid JSON with the same number of items', async () => {
    const res = await call(svc, '/catalog/titles/index', { query: { output: 'json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const doc = JSON.parse(res.body);
    expect(Object.keys(doc)).toEqual(['catalog_title_index']);
    const items = doc.catalog_title_index.title_index_item;
    expect(items).toHaveLength(titleCount);
    const item = items.find((i: Xml) => i.id === movieId());
    expect(item.title).toBe(movie.title);
    expect(res.headers.etag).not.toBe(index.headers.etag); // another representation, another tag
  });

  /** One title's record cut out of a streamed body (titles do not nest), parsed on its own. */
  const recordOf = (body: string, id: string): Xml => {
    const start = body.indexOf(`<catalog_title><id>${id}</id>`);
    expect(start).toBeGreaterThan(0);
    const end = body.indexOf('</catalog_title>', start) + '</catalog_title>'.length;
    return parseXml(body.slice(start, end)).catalog_title;
  };

  it('/catalog/titles/full at v1.0 holds one catalog_title per title, each as GET on the title answers it', async () => {
    const res = await call(svc, '/catalog/titles/full');
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('<?xml version="1.0" standalone="yes"?><catalog_titles>')).toBe(true);
    expect(res.body.endsWith('</catalog_titles>')).toBe(true);
    expect(itemCount(res.body, 'catalog_title')).toBe(titleCount);
    const single = parseXml((await call(svc, `/catalog/titles/movies/${movie.id}`)).body).catalog_title;
    const record = recordOf(res.body, movieId());
    expect(record).toEqual(single);
    expect(linksByTitle(record).synopsis.synopsis).toBeUndefined(); // links only at v1.0
  });

  it('/catalog/titles/full at v1.5 holds full records: synopsis, formats, details and people inline', async () => {
    const res = await call(svc, '/catalog/titles/full', { query: { v: '1.5' } });
    expect(res.statusCode).toBe(200);
    expect(itemCount(res.body, 'catalog_title')).toBe(titleCount);
    const record = recordOf(res.body, movieId());
    const links = linksByTitle(record);
    expect(typeof links.synopsis.synopsis).toBe('string');
    expect(links.synopsis.synopsis.length).toBeGreaterThan(0);
    expect(links.formats.delivery_formats.availability.length).toBeGreaterThan(0);
    expect(links.cast.people.link.map((l: Xml) => l.href)).toEqual(
      cast.map((id) => `${svc.baseUrl}/catalog/people/${id}`),
    );
    expect(links.directors.people.link.map((l: Xml) => l.href)).toEqual(
      directors.map((id) => `${svc.baseUrl}/catalog/people/${id}`),
    );
    const expand = 'synopsis,formats,screen formats,languages and audio,cast,directors,awards';
    const single = parseXml(
      (await call(svc, `/catalog/titles/movies/${movie.id}`, { query: { v: '1.5', expand } })).body,
    ).catalog_title;
    expect(record).toEqual(single);
  });

  it('the full catalog has its own ETag per version, each answering 304 to itself', async () => {
    // If-None-Match: * answers 304 with the current tag and no body: the tags without the streams.
    const tag = async (query: Record<string, string>) => {
      const res = await call(svc, '/catalog/titles/full', { query, headers: { 'if-none-match': '*' } });
      expect(res.statusCode).toBe(304);
      return res.headers.etag as string;
    };
    const v10 = await tag({});
    const v15 = await tag({ v: '1.5' });
    expect(v10).toMatch(/^"[^"]+"$/);
    expect(v15).not.toBe(v10);
    expect(v10).not.toBe(index.headers.etag);
    expect(await tag({ v: '1.5', output: 'json' })).not.toBe(v15);
    const notModified = await call(svc, '/catalog/titles/full', {
      query: { v: '1.5' },
      headers: { 'if-none-match': v15 },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('the index and full catalog need a signature', async () => {
    for (const path of ['/catalog/titles/index', '/catalog/titles/full']) {
      const res = await call(svc, path, { auth: 'key' });
      expect(res.statusCode, path).toBe(401);
      expect(parseXml(res.body).status.status_code).toBe('401');
    }
  });
});
