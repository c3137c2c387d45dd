import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml, type Xml } from '../helpers/xml.ts';

/** `POST /catalog/titles/match` (the title-match extension): candidates per entry, their order, limits and errors, on both databases. */
describe.each(DATABASES)('matching titles by name on %s', (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(kind);
  });
  afterAll(() => svc.close());

  const match = (form: Record<string, string>) => call(svc, '/catalog/titles/match', { method: 'POST', form });
  const matches = async (form: Record<string, string>): Promise<Xml[]> => {
    const res = await match(form);
    expect(res.statusCode, res.body).toBe(200);
    const m = parseXml(res.body).title_matches.title_match;
    return Array.isArray(m) ? m : [m];
  };
  const named = (m: Xml) => ((m.catalog_title ?? []) as Xml[]).map((t) => `${t.title.regular} ${t.release_year}`);
  const ref = (id: number) => `${svc.baseUrl}/catalog/titles/movies/${id}`;

  it('answers one title_match per entry, in order of n, the same name first and the closest year next', async () => {
    const [kong, psycho, godfather] = await matches({
      'title[2]': 'PSYCHO',
      'year[2]': '1998',
      'title[1]': 'King Kong',
      'year[1]': '1977',
      'title[3]': 'Godfather, The',
    });
    expect(kong.n).toBe('1');
    expect(named(kong).slice(0, 3)).toEqual(['King Kong 1976', 'King Kong 2005', 'King Kong 1933']);
    expect(named(psycho)[0]).toBe('Psycho 1998');
    expect(named(godfather)[0]).toBe('The Godfather 1972');
    expect(Number(godfather.number_of_results)).toBe(godfather.catalog_title.length);
  });

  it('finds names written with "and" for "&", without apostrophes, or in other case', async () => {
    const found = await matches({
      'title[1]': 'Bill and Teds Excellent Adventure',
      'title[2]': 'AMERICAN BEAUTY',
      'title[3]': 'Dont Look Now',
    });
    expect(found.map((m) => named(m)[0])).toEqual([
      "Bill & Ted's Excellent Adventure 1989",
      'American Beauty 1999',
      "Don't Look Now 1973",
    ]);
  });

  it('puts the title a title_ref names first, and expands what expand asks for', async () => {
    const [m] = await matches({ 'title[1]': 'Akira', 'title_ref[1]': ref(60000101), expand: 'formats' });
    expect(m.catalog_title[0].id).toBe(ref(60000101));
    const formats = m.catalog_title[0].link.find((l: Xml) => l.title === 'formats');
    expect(formats.delivery_formats).toBeDefined();
  });

  it('keeps max_results candidates per entry (5 by default, at most 25) and none for a name it lacks', async () => {
    const [five, two, none] = await matches({
      'title[1]': 'the',
      'title[2]': 'star',
      'title[3]': 'Oppenheimer',
      max_results: '2',
    });
    expect(five.catalog_title).toHaveLength(2);
    expect(two.catalog_title).toHaveLength(2);
    expect(none.number_of_results).toBe('0');
    expect(none.catalog_title).toBeUndefined();
    const [many] = await matches({ 'title[1]': 'the', max_results: '100' });
    expect(many.catalog_title).toHaveLength(25);
    const [standard] = await matches({ 'title[1]': 'the' });
    expect(standard.catalog_title).toHaveLength(5);
  });

  it('refuses no title, an empty one, a bad year, more than 500 entries and a GET, in the contract’s words', async () => {
    const status = async (form: Record<string, string>) => {
      const res = await match(form);
      return `${res.statusCode} ${/<message>([^<]*)<\/message>/.exec(res.body)?.[1]}`;
    };
    expect(await status({ max_results: '5' })).toBe('400 title is required');
    expect(await status({ 'title[1]': ' ' })).toBe('400 title is required');
    expect(await status({ 'title[1]': 'Alien', 'year[1]': '79' })).toBe('400 year is invalid');
    expect(await status({ 'title[1]': 'Alien', max_results: '0' })).toBe('400 max_results is invalid');
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`title[${i + 1}]`, 'Alien']));
    expect(await status(many)).toBe('400 title is invalid');
    const get = await call(svc, '/catalog/titles/match', { query: { 'title[1]': 'Alien' } });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('is signed: a request without a signature is refused', async () => {
    const res = await call(svc, '/catalog/titles/match', {
      method: 'POST',
      form: { 'title[1]': 'Alien' },
      auth: 'none',
    });
    expect(res.statusCode).toBe(401);
  });
});
