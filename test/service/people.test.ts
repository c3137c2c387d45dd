import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, linksByTitle, parseXml, type Xml } from '../helpers/xml.ts';

const FILMOGRAPHY_REL = 'http://schemas.netflix.com/catlog/person/filmography'; // the historical typo, on purpose
const TITLE_REL = 'http://schemas.netflix.com/catalog/title';

describe.each(DATABASES)('people on %s', (kind) => {
  let svc: TestService;
  /** A director of a movie, and that movie. */
  let director: { id: number; name: string };
  let film: { id: number; title: string };
  let filmCount: number;

  beforeAll(async () => {
    svc = await startTestService(kind);
    const k = svc.db.kysely;
    const credit = await k
      .selectFrom('credits')
      .innerJoin('titles', 'titles.id', 'credits.title_id')
      .innerJoin('people', 'people.id', 'credits.person_id')
      .select(['people.id as person_id', 'people.name', 'titles.id as title_id', 'titles.title'])
      .where('credits.role', '=', 'director')
      .where('titles.type', '=', 'movie')
      // someone with several films, so the filmography has pages to turn
      .where(
        (eb) =>
          eb
            .selectFrom('credits as theirs')
            .select(eb.fn.countAll().as('n'))
            .whereRef('theirs.person_id', '=', 'credits.person_id'),
        '>',
        3,
      )
      .orderBy('people.id')
      .limit(1) // counted per candidate, first one only: grouping every credit first took 3 s on SQLite
      .executeTakeFirstOrThrow();
    director = { id: credit.person_id, name: credit.name };
    film = { id: credit.title_id, title: credit.title };
    const titles = await k
      .selectFrom('credits')
      .select('title_id')
      .distinct()
      .where('person_id', '=', director.id)
      .execute();
    filmCount = titles.length;
    expect(filmCount).toBeGreaterThan(3);
  });
  afterAll(() => svc.close());

  const personPath = () => `/catalog/people/${director.id}`;
  const personId = () => `${svc.baseUrl}${personPath()}`;

  function expectPerson(p: Xml, id: string, name: string) {
    expect(p.id).toBe(id);
    expect(p.name).toBe(name);
    expect(typeof p.bio).toBe('string');
    const links = linksByTitle(p);
    expect(links.filmography).toMatchObject({ href: `${id}/filmography`, rel: FILMOGRAPHY_REL });
    expect(links['web page'].href).toBe(`${svc.baseUrl}/web/people/${id.split('/').pop()}`);
  }

  it('a search by term answers a paged people list of person elements', async () => {
    const res = await call(svc, '/catalog/people', { query: { term: director.name, max_results: '100' } });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('<?xml version="1.0" standalone="yes"?><people>')).toBe(true);
    const doc = parseXml(res.body).people;
    expect(Number(doc.number_of_results)).toBeGreaterThan(0);
    expect(doc.start_index).toBe('0');
    expect(doc.results_per_page).toBe('100');
    const found = doc.person.find((p: Xml) => p.id === personId());
    expect(found).toBeDefined();
    expectPerson(found, personId(), director.name);
  });

  it('every person found by a search has an id, a name, a bio and both links', async () => {
    const doc = parseXml((await call(svc, '/catalog/people', { query: { term: 'john' } })).body).people;
    expect(doc.person.length).toBeGreaterThan(1);
    for (const p of doc.person) {
      expect(p.id).toMatch(new RegExp(`^${svc.baseUrl}/catalog/people/\\d+$`));
      expect(p.name.length).toBeGreaterThan(0);
      expect(p.name.toLowerCase()).toMatch(/\bjohn/);
      expectPerson(p, p.id, p.name);
    }
  });

  it('search results page with start_index and max_results without repeats', async () => {
    const page1 = parseXml(
      (await call(svc, '/catalog/people', { query: { term: 'john', max_results: '3' } })).body,
    ).people;
    const page2 = parseXml(
      (await call(svc, '/catalog/people', { query: { term: 'john', max_results: '3', start_index: '3' } })).body,
    ).people;
    expect(page1.person).toHaveLength(3);
    expect(page2.start_index).toBe('3');
    expect(page2.number_of_results).toBe(page1.number_of_results);
    const ids = [...page1.person, ...page2.person].map((p: Xml) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a search without term is 400 "term is required"', async () => {
    const res = await call(svc, '/catalog/people');
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status).toMatchObject({ status_code: '400', message: 'term is required' });
  });

  it('a search matching nobody is an empty page; a start beyond it is 400 sub 120', async () => {
    const empty = parseXml((await call(svc, '/catalog/people', { query: { term: 'zzqxjvwk' } })).body).people;
    expect(empty.number_of_results).toBe('0');
    expect(empty.person).toBeUndefined();
    const total = Number(
      parseXml((await call(svc, '/catalog/people', { query: { term: 'john' } })).body).people.number_of_results,
    );
    const beyond = await call(svc, '/catalog/people', { query: { term: 'john', start_index: String(total) } });
    expect(beyond.statusCode).toBe(400);
    expect(parseXml(beyond.body).status).toMatchObject({ status_code: '400', sub_code: '120' });
  });

  it('a people search needs a signature', async () => {
    const res = await call(svc, '/catalog/people', { auth: 'key', query: { term: 'john' } });
    expect(res.statusCode).toBe(401);
    expect(parseXml(res.body).status.status_code).toBe('401');
  });

  it('GET /catalog/people/<id> is the person with exactly id, name, bio and links', async () => {
    const res = await call(svc, personPath());
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'person')).toEqual(['id', 'name', 'bio', 'link']);
    const p = parseXml(res.body).person;
    expectPerson(p, personId(), director.name);
    expect(p.link).toHaveLength(2);
    expect(linksByTitle(p).filmography.filmography).toBeUndefined(); // not expanded unless asked
  });

  it("a person found through a title's cast link is the same person", async () => {
    const cast = parseXml(
      (await call(svc, `/catalog/titles/movies/${film.id}`, { query: { expand: 'directors' } })).body,
    ).catalog_title;
    const href = linksByTitle(cast).directors.people.link.find((l: Xml) => l.href === personId())?.href;
    expect(href).toBe(personId());
    const p = parseXml((await call(svc, new URL(href).pathname)).body).person;
    expect(p.name).toBe(director.name);
  });

  it('expand=filmography puts one level of title links under the filmography link', async () => {
    const p = parseXml((await call(svc, personPath(), { query: { expand: 'filmography' } })).body).person;
    const links = linksByTitle(p).filmography.filmography.link;
    expect(links).toHaveLength(filmCount);
    const mine = links.find((l: Xml) => l.href === `${svc.baseUrl}/catalog/titles/movies/${film.id}`);
    expect(mine).toMatchObject({ rel: TITLE_REL, title: film.title });
    for (const l of links) expect(Object.keys(l).sort()).toEqual(['href', 'rel', 'title']); // links only, nothing nested
  });

  it("GET …/filmography is a paged list of filmography_item titles holding the director's film", async () => {
    const res = await call(svc, `${personPath()}/filmography`);
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body).filmography;
    expect(Number(doc.number_of_results)).toBe(filmCount);
    expect(doc.start_index).toBe('0');
    expect(doc.results_per_page).toBe('25');
    expect(doc.filmography_item).toHaveLength(Math.min(filmCount, 25));
    const item = doc.filmography_item.find((t: Xml) => t.id === `${svc.baseUrl}/catalog/titles/movies/${film.id}`);
    expect(item).toBeDefined();
    expect(item.title.regular).toBe(film.title);
    expect(item.box_art.small).toMatch(/\/box_art\/small\/\d+\.svg$/);
    expect(linksByTitle(item).directors.href).toBe(`${item.id}/directors`);
    expect(childNames(res.body, 'filmography_item')).toEqual(
      expect.arrayContaining(['id', 'title', 'box_art', 'link', 'category']),
    );
  });

  it('the filmography resource and the expanded filmography list the same titles', async () => {
    const expanded = linksByTitle(
      parseXml((await call(svc, personPath(), { query: { expand: 'filmography' } })).body).person,
    ).filmography.filmography.link.map((l: Xml) => l.href);
    const listed = parseXml(
      (await call(svc, `${personPath()}/filmography`, { query: { max_results: '500' } })).body,
    ).filmography.filmography_item.map((t: Xml) => t.id);
    expect(listed).toEqual(expanded);
  });

  it('the filmography pages with max_results and start_index', async () => {
    const first = parseXml(
      (await call(svc, `${personPath()}/filmography`, { query: { max_results: '1' } })).body,
    ).filmography;
    expect(first.filmography_item).toHaveLength(1);
    expect(first.results_per_page).toBe('1');
    const second = parseXml(
      (await call(svc, `${personPath()}/filmography`, { query: { max_results: '1', start_index: '1' } })).body,
    ).filmography;
    expect(second.filmography_item[0].id).not.toBe(first.filmography_item[0].id);
    const beyond = await call(svc, `${personPath()}/filmography`, { query: { start_index: String(filmCount) } });
    expect(beyond.statusCode).toBe(400);
    expect(parseXml(beyond.body).status).toMatchObject({ status_code: '400', sub_code: '120' });
  });

  it('the filmography follows the filmography link href as given', async () => {
    const p = parseXml((await call(svc, personPath())).body).person;
    const res = await call(svc, new URL(linksByTitle(p).filmography.href).pathname);
    expect(res.statusCode).toBe(200);
    expect(Number(parseXml(res.body).filmography.number_of_results)).toBe(filmCount);
  });

  it('an unknown or non-numeric person id is 404, for the person and the filmography', async () => {
    for (const path of [
      '/catalog/people/99999999',
      '/catalog/people/abc',
      '/catalog/people/-1',
      '/catalog/people/99999999/filmography',
      '/catalog/people/abc/filmography',
      `${personPath()}/nonsense`,
    ]) {
      const res = await call(svc, path);
      expect(res.statusCode, path).toBe(404);
      expect(parseXml(res.body).status, path).toMatchObject({ status_code: '404', message: 'Resource not found' });
    }
  });

  it('the web page link serves an HTML page about the person without signing', async () => {
    const p = parseXml((await call(svc, personPath())).body).person;
    const page = await call(svc, new URL(linksByTitle(p)['web page'].href).pathname, { auth: 'none' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toMatch(/^<!doctype html>/i);
    const escaped = director.name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    expect(page.body).toContain(`<h1>${escaped}</h1>`);
    expect((await call(svc, '/web/people/99999999', { auth: 'none' })).statusCode).toBe(404);
  });

  it('output=json gives the person with its links as an array', async () => {
    const res = await call(svc, personPath(), { query: { output: 'json', expand: 'filmography' } });
    const p = JSON.parse(res.body).person;
    expect(p.id).toBe(personId());
    expect(p.name).toBe(director.name);
    expect(Array.isArray(p.link)).toBe(true);
    const filmography = p.link.find((l: Xml) => l.title === 'filmography');
    expect(filmography.rel).toBe(FILMOGRAPHY_REL);
    expect(filmography.filmography.link).toHaveLength(filmCount);
    expect(filmography.filmography.link.map((l: Xml) => l.href)).toContain(
      `${svc.baseUrl}/catalog/titles/movies/${film.id}`,
    );
  });
});
