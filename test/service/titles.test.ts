import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discHoldersQuery, getTitles } from '../../service/store/catalog/read.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, linksByTitle, parseXml } from '../helpers/xml.ts';

describe.each(DATABASES)('title resources on %s', (kind) => {
  let svc: TestService;
  let movie: { id: number };
  let discMovie: { id: number };
  let series: { id: number };
  let season: { id: number; series_id: number };
  let episode: { id: number };
  let disc: { id: number };

  beforeAll(async () => {
    svc = await startTestService(kind);
    const k = svc.db.kysely;
    const discParents = k.selectFrom('titles').select('parent_id').where('type', '=', 'disc');
    movie = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'movie')
      .where('id', 'in', k.selectFrom('credits').select('title_id').where('role', '=', 'director'))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    discMovie = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'movie')
      .where('id', 'in', discParents)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    series = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'series')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    season = (await k
      .selectFrom('titles')
      .select(['id', 'series_id'])
      .where('type', '=', 'season')
      .where('parent_id', '=', series.id)
      .orderBy('sequence')
      .executeTakeFirstOrThrow()) as { id: number; series_id: number };
    episode = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'program')
      .where('parent_id', '=', season.id)
      .orderBy('sequence')
      .executeTakeFirstOrThrow();
    disc = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'disc')
      .where('parent_id', '=', season.id)
      .orderBy('sequence')
      .executeTakeFirstOrThrow();
  });
  afterAll(() => svc.close());

  const moviePath = () => `/catalog/titles/movies/${movie.id}`;
  const seasonPath = () => `/catalog/titles/series/${season.series_id}/seasons/${season.id}`;

  it('a v1.0 movie has exactly the historical element set', async () => {
    const res = await call(svc, moviePath());
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'catalog_title').sort()).toEqual(
      ['average_rating', 'box_art', 'category', 'id', 'link', 'release_year', 'runtime', 'title'].sort(),
    );
    const t = parseXml(res.body).catalog_title;
    expect(t.id).toBe(`${svc.baseUrl}${moviePath()}`);
    expect(Number(t.runtime)).toBeGreaterThan(600); // seconds, not minutes
    expect(t.average_rating).toMatch(/^\d\.\d$/);
    expect(t.title.regular.length).toBeGreaterThan(0);
  });

  it('every title type is served at its own path', async () => {
    for (const path of [
      `/catalog/titles/series/${series.id}`,
      seasonPath(),
      `/catalog/titles/programs/${episode.id}`,
      `/catalog/titles/discs/${disc.id}`,
    ]) {
      const res = await call(svc, path);
      expect(res.statusCode, path).toBe(200);
      expect(parseXml(res.body).catalog_title.id).toBe(`${svc.baseUrl}${path}`);
    }
  });

  it('series link seasons, episodes and discs; seasons link episodes, discs and their series; episodes link season and series', async () => {
    const s = linksByTitle(parseXml((await call(svc, `/catalog/titles/series/${series.id}`)).body).catalog_title);
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['seasons', 'episodes', 'discs']));
    const se = parseXml((await call(svc, seasonPath())).body).catalog_title;
    const seLinks = linksByTitle(se);
    expect(Object.keys(seLinks)).toEqual(expect.arrayContaining(['episodes', 'discs']));
    expect(seLinks.seasons).toBeUndefined();
    expect(
      se.link.find((l: { rel: string }) => l.rel === 'http://schemas.netflix.com/catalog/titles.series').href,
    ).toBe(`${svc.baseUrl}/catalog/titles/series/${series.id}`);
    const ep = parseXml((await call(svc, `/catalog/titles/programs/${episode.id}`)).body).catalog_title;
    const rels = ep.link.map((l: { rel: string }) => l.rel);
    expect(rels).toContain('http://schemas.netflix.com/catalog/titles.series');
    expect(rels).toContain('http://schemas.netflix.com/catalog/titles.season');
    expect(linksByTitle(ep).episodes).toBeUndefined();
  });

  it('a series links discs only when one of its seasons has discs; a movie without discs links none', async () => {
    const k = svc.db.kysely;
    // The demo gives every series disc sets: take them away from one (not the series other tests use).
    const bare = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'series')
      .where('id', '!=', series.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const seasonsOfBare = k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'season')
      .where('parent_id', '=', bare.id);
    await k.deleteFrom('titles').where('type', '=', 'disc').where('parent_id', 'in', seasonsOfBare).execute();
    const barePath = `/catalog/titles/series/${bare.id}`;
    const t = parseXml((await call(svc, barePath)).body).catalog_title;
    expect(Object.keys(linksByTitle(t))).toEqual(expect.arrayContaining(['seasons', 'episodes']));
    expect(linksByTitle(t).discs).toBeUndefined();
    const discs = await call(svc, `${barePath}/discs`);
    expect(discs.statusCode).toBe(404);
    // The series that keeps its discs still links them.
    expect(
      linksByTitle(parseXml((await call(svc, `/catalog/titles/series/${series.id}`)).body).catalog_title).discs,
    ).toBeDefined();
    const noDiscMovie = await k
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'movie')
      .where(
        'id',
        'not in',
        k.selectFrom('titles').select('parent_id').where('type', '=', 'disc').where('parent_id', 'is not', null),
      )
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      linksByTitle(parseXml((await call(svc, `/catalog/titles/movies/${noDiscMovie.id}`)).body).catalog_title).discs,
    ).toBeUndefined();
    // Every type at once, as a page of titles loads them.
    const [bareSeason] = await seasonsOfBare.orderBy('id').execute();
    const records = await getTitles(svc.db, [
      bare.id,
      series.id,
      noDiscMovie.id,
      discMovie.id,
      season.id,
      bareSeason!.id,
      episode.id,
      disc.id,
    ]);
    const hasDiscs = Object.fromEntries([...records.values()].map((r) => [r.id, r.hasDiscs]));
    expect(hasDiscs).toEqual({
      [bare.id]: false,
      [series.id]: true,
      [noDiscMovie.id]: false,
      [discMovie.id]: true,
      [season.id]: true,
      [bareSeason!.id]: false,
      [episode.id]: false,
      [disc.id]: false,
    });
  });

  it('a title under the wrong type path or the wrong series is 404', async () => {
    expect((await call(svc, `/catalog/titles/series/${movie.id}`)).statusCode).toBe(404);
    expect((await call(svc, `/catalog/titles/movies/${series.id}`)).statusCode).toBe(404);
    expect((await call(svc, `/catalog/titles/series/${movie.id}/seasons/${season.id}`)).statusCode).toBe(404);
    expect((await call(svc, '/catalog/titles/movies/99999999999')).statusCode).toBe(404);
    expect((await call(svc, '/catalog/titles/movies/abc')).statusCode).toBe(404);
    expect((await call(svc, `${moviePath()}/seasons`)).statusCode).toBe(404);
    expect((await call(svc, `${moviePath()}/nonsense`)).statusCode).toBe(404);
  });

  it('serves every single-resource subresource', async () => {
    const synopsis = await call(svc, `${moviePath()}/synopsis`);
    expect(synopsis.body).toMatch(/<synopsis><!\[CDATA\[.+\]\]><\/synopsis>$/s);
    expect(parseXml((await call(svc, `${moviePath()}/short_synopsis`)).body).short_synopsis.length).toBeGreaterThan(0);
    const formats = parseXml((await call(svc, `${moviePath()}/format_availability`)).body).delivery_formats;
    expect(formats.availability[0].available_from).toMatch(/^\d+$/);
    expect(formats.availability[0].category[0].scheme).toBe(`${svc.baseUrl}/categories/title_formats`);
    const screen = parseXml((await call(svc, `${moviePath()}/screen_formats`)).body).screen_formats;
    expect(screen.screen_format.length).toBeGreaterThan(0);
    const langs = parseXml((await call(svc, `${moviePath()}/languages_and_audio`)).body).languages_and_audio;
    expect(langs.language_audio_format.length).toBeGreaterThan(0);
    const awards = await call(svc, `${moviePath()}/awards`);
    expect(awards.statusCode).toBe(200);
    expect(awards.body).toMatch(/<awards(\/>|>)/);
  });

  it('serves cast and directors as people, with real director credits', async () => {
    const cast = parseXml((await call(svc, `${moviePath()}/cast`)).body).people;
    expect(cast.person.length).toBeGreaterThan(0);
    expect(cast.person[0].id).toMatch(/\/catalog\/people\/\d+$/);
    const directors = parseXml((await call(svc, `${moviePath()}/directors`)).body).people;
    expect(directors.person[0].name.length).toBeGreaterThan(0);
  });

  it('serves similars, seasons, episodes, discs and bonus materials as paged title lists', async () => {
    const similars = parseXml((await call(svc, `${moviePath()}/similars`)).body).catalog_titles;
    expect(Number(similars.number_of_results)).toBeGreaterThan(0);
    expect(similars.catalog_title.every((t: { id: string }) => t.id !== `${svc.baseUrl}${moviePath()}`)).toBe(true);
    const seasons = parseXml((await call(svc, `/catalog/titles/series/${series.id}/seasons`)).body).catalog_titles;
    expect(seasons.catalog_title[0].id).toBe(`${svc.baseUrl}${seasonPath()}`);
    const episodes = parseXml(
      (await call(svc, `${seasonPath()}/episodes`, { query: { max_results: '2' } })).body,
    ).catalog_titles;
    expect(episodes.catalog_title[0].id).toBe(`${svc.baseUrl}/catalog/titles/programs/${episode.id}`);
    expect(episodes.catalog_title).toHaveLength(2);
    const seriesEpisodes = parseXml(
      (await call(svc, `/catalog/titles/series/${series.id}/episodes`)).body,
    ).catalog_titles;
    expect(Number(seriesEpisodes.number_of_results)).toBeGreaterThanOrEqual(Number(episodes.number_of_results));
    const discs = parseXml((await call(svc, `${seasonPath()}/discs`)).body).catalog_titles;
    expect(discs.catalog_title[0].id).toBe(`${svc.baseUrl}/catalog/titles/discs/${disc.id}`);
    const movieDiscs = parseXml((await call(svc, `/catalog/titles/movies/${discMovie.id}/discs`)).body).catalog_titles;
    expect(Number(movieDiscs.number_of_results)).toBeGreaterThan(0);
    const bonus = await call(svc, `${moviePath()}/bonus_materials`);
    expect(bonus.statusCode).toBe(200);
    expect(bonus.body).toContain('<catalog_titles>');
  });

  it('expands a single resource inline and a collection one level as links', async () => {
    const res = await call(svc, moviePath(), {
      query: { expand: 'synopsis,formats,screen formats,languages and audio,cast,directors,similars' },
    });
    const links = linksByTitle(parseXml(res.body).catalog_title);
    expect(links.synopsis.synopsis.length).toBeGreaterThan(0);
    expect(links.formats.delivery_formats.availability.length).toBeGreaterThan(0);
    expect(links['screen formats'].screen_formats.screen_format.length).toBeGreaterThan(0);
    expect(links['languages and audio'].languages_and_audio.language_audio_format.length).toBeGreaterThan(0);
    expect(links.directors.people.link[0].rel).toBe('http://schemas.netflix.com/catalog/person');
    expect(links.similars.similars.link.length).toBeGreaterThan(0);
    // One level only: a similar title's link carries no nested expansion.
    expect(links.similars.similars.link[0].similars).toBeUndefined();
  });

  it('accepts %20 for spaces, ignores unknown names, and gates 1.5 names on v', async () => {
    const res = await call(svc, `${moviePath()}?expand=screen%20formats,nonsense,awards`, {});
    const links = linksByTitle(parseXml(res.body).catalog_title);
    expect(links['screen formats'].screen_formats).toBeDefined();
    expect(links.awards.awards).toBeUndefined(); // awards is a 1.5 expansion
    const v15 = linksByTitle(
      parseXml((await call(svc, moviePath(), { query: { expand: 'awards,short synopsis', v: '1.5' } })).body)
        .catalog_title,
    );
    expect(v15.awards.awards).toBeDefined();
    expect(v15['short synopsis'].short_synopsis.length).toBeGreaterThan(0);
  });

  it('expands seasons and episodes of a series', async () => {
    const t = parseXml(
      (await call(svc, `/catalog/titles/series/${series.id}`, { query: { expand: 'seasons,episodes,discs' } })).body,
    ).catalog_title;
    const links = linksByTitle(t);
    expect(links.seasons.seasons.link[0].href).toBe(`${svc.baseUrl}${seasonPath()}`);
    expect(links.episodes.episodes.link.length).toBeGreaterThan(1);
    expect(links.discs.discs.link.length).toBeGreaterThan(0);
  });
});

describe('title queries on SQLite', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(() => svc.close());

  it('finds disc holders through titles_parent_type, not by walking every disc', async () => {
    const k = svc.db.kysely;
    const ids = (
      await k
        .selectFrom('titles')
        .select('id')
        .where('type', 'in', ['movie', 'series', 'season'])
        .orderBy('id')
        .limit(25)
        .execute()
    ).map((r) => r.id);
    // The plan of the very statement discHolders runs, not a copy of its SQL.
    const compiled = discHoldersQuery(svc.db, ids).compile();
    const plan = await k.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
    );
    const details = plan.rows.map((r) => r.detail);
    // Both branches (discs of the ids; seasons of the ids, then their discs) search the index.
    expect(
      details.filter((d) =>
        /SEARCH [ds] USING (COVERING )?INDEX titles_parent_type \(parent_id=\? AND type=\?\)/.test(d),
      ).length,
      details.join('\n'),
    ).toBeGreaterThanOrEqual(2);
    expect(details.join('\n')).not.toMatch(/SCAN (d|s|titles)\b/);
  });
});
