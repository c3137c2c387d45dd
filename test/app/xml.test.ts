import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRentals } from '../../service/store/subscriber/history.ts';
import {
  createdQueueItems,
  kids,
  parseAutocomplete,
  parseCategories,
  parseCurrentUserLink,
  parseFilmography,
  parsePeoplePage,
  parsePerson,
  parseQueue,
  parseRatings,
  parseRecommendations,
  parseRentalHistory,
  parseRoot,
  parseStatus,
  parseTitle,
  parseTitlePage,
  parseTitleStates,
  parseUser,
} from '../../electron/core/xml/index.ts';
import { firstSeriesRefs } from '../helpers/catalog-picks.ts';
import { startLiveClientEnv, type LiveClientEnv } from './helpers/live-client.ts';

/** The mappers on real answers of our service (fetched live; nothing hand-written but one id swap). */
let env: LiveClientEnv;
let uid: string;
let user: string;
let matrix: string;
let series: { series: string; season: string; episode: string; disc: string };

beforeAll(async () => {
  env = await startLiveClientEnv();
  uid = env.svc.subscriber.id;
  user = `${env.svc.url}/users/${uid}`;
  matrix = parseTitlePage(await env.body('/catalog/titles', { term: 'The Matrix', max_results: '1' })).items[0]!.ref;
  series = await firstSeriesRefs(env.svc.db, env.svc.url);
});
afterAll(() => env?.close());

const EXPAND = {
  v: '1.5',
  expand: 'synopsis,cast,directors,formats,screen formats,languages and audio,awards,similars,seasons,episodes,discs',
};
const detailOf = async (ref: string) => parseTitle(await env.body(ref, EXPAND));

describe('catalog', () => {
  it('maps a search page, and a page of one item is still a list', async () => {
    const page = parseTitlePage(await env.body('/catalog/titles', { term: 'The Matrix', max_results: '3' }));
    expect(page.items.length).toBe(3);
    expect(page).toMatchObject({ start: 0, perPage: 3 });
    expect(page.total).toBeGreaterThanOrEqual(3);
    const one = parseTitlePage(await env.body('/catalog/titles', { term: 'The Matrix', max_results: '1' }));
    expect(one.items).toHaveLength(1);
    const m = one.items[0]!;
    expect(m).toMatchObject({
      ref: matrix,
      type: 'movie',
      title: 'The Matrix',
      shortTitle: 'The Matrix',
      year: 1999,
      runtimeSeconds: 8160,
      averageRating: 4.4,
      maturity: 'R',
    });
    expect(typeof m.ref).toBe('string');
    expect(m.genres).toEqual(['Action & Adventure', 'Sci-Fi & Fantasy']);
    expect(m.formats.sort()).toEqual(['Blu-ray', 'DVD', 'instant']);
    expect(m.boxArt.large).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/box_art\/large\//);
  });

  it('maps an expanded movie', async () => {
    const d = parseTitle(await env.body(matrix, EXPAND));
    expect(d.similarsRef).toBe(`${matrix}/similars`);
    expect(d).toMatchObject({
      ref: matrix,
      type: 'movie',
      title: 'The Matrix',
      series: null,
      season: null,
      seasons: [],
      episodes: [],
    });
    expect(d.synopsis).toContain('<a href="http://127.0.0.1:');
    expect(d.cast.length).toBeGreaterThan(0);
    expect(d.cast[0]!.ref).toContain('/catalog/people/');
    expect(d.cast[0]!.name).not.toBe('');
    expect(d.directors.map((p) => p.name)).toEqual(['The Wachowskis']);
    expect(d.availability.map((a) => a.format).sort()).toEqual(['Blu-ray', 'DVD', 'instant']);
    expect(d.availability.every((a) => typeof a.from === 'number' && a.from > 0)).toBe(true);
    expect(d.screenFormats).toContainEqual({ format: 'DVD', screenFormat: '2.40:1' });
    expect(d.languages).toContainEqual({ format: 'Blu-ray', language: 'French', audio: ['Dolby Digital 2.0'] });
    expect(d.languages.find((l) => l.format === 'DVD')?.audio).toEqual(['Dolby Digital 5.1', 'Dolby Digital 2.0']);
    expect(d.awards).toEqual([]);
  });

  it('maps a series, a season, an episode and a disc with their members and parents', async () => {
    const s = await detailOf(series.series);
    expect(s.type).toBe('series');
    expect(s.seasons.length).toBeGreaterThan(0);
    expect(s.seasons).toContainEqual(expect.objectContaining({ ref: series.season }));
    expect(s.episodes.length).toBeGreaterThan(s.seasons.length);
    expect(s.discs.length).toBeGreaterThan(0);
    const season = await detailOf(series.season);
    expect(season.type).toBe('season');
    expect(season.series?.ref).toBe(series.series);
    expect(season.episodes).toContainEqual(expect.objectContaining({ ref: series.episode }));
    expect(season.seasons).toEqual([]);
    const ep = await detailOf(series.episode);
    expect(ep).toMatchObject({ type: 'program', series: { ref: series.series }, season: { ref: series.season } });
    const disc = await detailOf(series.disc);
    expect(disc.type).toBe('disc');
  });

  it('maps a person, the link to their filmography, and the filmography with box art', async () => {
    const director = (await detailOf(matrix)).directors[0]!.ref;
    const { person: p, filmographyUrl } = parsePerson(await env.body(director));
    expect(p).toMatchObject({ ref: director, name: 'The Wachowskis' });
    expect(p.bio).toContain('The Matrix');
    const film = parseFilmography(await env.body(filmographyUrl!));
    expect(film.items.map((t) => t.ref)).toEqual([matrix]);
    expect(film.items[0]!.boxArt.medium).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/box_art\/medium\//);
  });

  it("maps the similars expansion as the similar titles' names, the same titles their own list gives with box art", async () => {
    const d = await detailOf(matrix);
    expect(d.similars.length).toBeGreaterThan(3);
    expect(d.similars.every((s) => s.ref !== matrix && s.ref.includes('/catalog/titles/') && s.name !== '')).toBe(true);
    const similars = parseTitlePage(await env.body(d.similarsRef!, { max_results: '25' }));
    expect(similars.items.map((t) => ({ ref: t.ref, name: t.title }))).toEqual(d.similars);
    expect(similars.items.every((t) => t.boxArt.small.includes('/box_art/small/'))).toBe(true);
  });

  it('maps a title asked for without the similars expansion as naming none, still linking their list', async () => {
    const d = parseTitle(await env.body(matrix, { v: '1.5', expand: 'synopsis' }));
    expect(d.similars).toEqual([]);
    expect(d.similarsRef).toBe(`${matrix}/similars`);
  });

  it('maps a people search', async () => {
    const page = parsePeoplePage(await env.body('/catalog/people', { term: 'wachowski' }));
    expect(page.items).toContainEqual({ ref: (await detailOf(matrix)).directors[0]!.ref, name: 'The Wachowskis' });
    expect(page.total).toBe(page.items.length);
  });

  it('maps autocomplete and categories', async () => {
    expect(parseAutocomplete(await env.body('/catalog/titles/autocomplete', { term: 'matri' }, 'key'))).toContain(
      'The Matrix',
    );
    const genres = parseCategories(await env.body('/categories/genres'));
    expect(genres.length).toBeGreaterThan(5);
    expect(genres[0]).toEqual({
      scheme: `${env.svc.url}/categories/genres`,
      term: 'Action & Adventure',
      label: 'Action & Adventure',
    });
  });
});

describe('user resources', () => {
  it('maps the user, inlined or followed, and keeps an id that looks numeric as text', async () => {
    const inlined = parseUser(await env.body('/users/current', { expand: 'user' }));
    expect(inlined.user).toEqual({
      id: uid,
      firstName: 'Avery',
      lastName: 'App',
      nickname: 'Avery',
      canInstantWatch: true,
      preferredFormats: ['instant', 'DVD'],
    });
    expect(inlined.href).toBe(user);
    expect(inlined.links.queues).toBe(`${user}/queues`);
    const href = parseCurrentUserLink(await env.body('/users/current'));
    expect(href).toBe(user);
    const body = await env.body(href);
    expect(parseUser(body).user.id).toBe(uid);
    // The same answer with an id of digits and leading zeros (user ids are opaque strings).
    expect(parseUser(body.replaceAll(uid, '0070018295')).user.id).toBe('0070018295');
  });

  it('maps queues, write statuses and title states (single items included)', async () => {
    const empty = parseQueue(await env.body(`${user}/queues/instant`), 'instant', 'all');
    expect(empty).toEqual({ kind: 'instant', view: 'all', etag: '0', total: 0, items: [] });
    const added = await env.raw({
      method: 'POST',
      url: `${user}/queues/instant`,
      form: { title_ref: matrix },
      ifMatch: '0',
      level: 'protected',
    });
    const status = parseStatus(added.body, added.headers);
    expect(status).toMatchObject({ statusCode: 201, subCode: null, message: 'Resource created', etag: '1' });
    const created = createdQueueItems(status.created);
    expect(created).toHaveLength(1);
    expect(status.createdRefs).toEqual([created[0]!.itemRef]);

    const q = parseQueue(await env.body(`${user}/queues/instant`), 'instant', 'all');
    expect(q.etag).toBe('1');
    expect(q.items).toHaveLength(1);
    expect(q.items[0]).toMatchObject({
      ref: matrix,
      title: 'The Matrix',
      position: 1,
      availability: 'available now',
      format: 'instant',
      formats: ['instant'],
    });
    expect(q.items[0]!.itemRef).toBe(created[0]!.itemRef);
    expect(q.items[0]!.itemRef).toContain('/queues/instant/available/1/');

    const states = parseTitleStates(await env.body(`${user}/title_states`, { title_refs: matrix }));
    expect(states).toHaveLength(1);
    expect(states[0]!.ref).toBe(matrix);
    expect(states[0]!.instant.sort()).toEqual(['In Queue', 'Play']);
    expect(states[0]!.disc).toEqual(['Add']);

    const stale = await env.raw({
      method: 'POST',
      url: `${user}/queues/instant`,
      form: { title_ref: matrix, position: '1' },
      ifMatch: '0',
      level: 'protected',
    });
    expect(stale.status).toBe(412);
    expect(parseStatus(stale.body)).toMatchObject({
      statusCode: 412,
      message: 'Precondition failed. Resource has been modified.',
    });
    const missing = await env.raw({
      method: 'DELETE',
      url: `${user}/queues/disc/available/1/99999`,
      level: 'protected',
    });
    expect(parseStatus(missing.body)).toMatchObject({ statusCode: 404, subCode: 610 });
  });

  it('maps a disc queue whose add created several items', async () => {
    const res = await env.raw({
      method: 'POST',
      url: `${user}/queues/disc`,
      form: { title_ref: series.season },
      level: 'protected',
    });
    const items = createdQueueItems(parseStatus(res.body).created);
    expect(items.length).toBeGreaterThan(1);
    expect(items.every((i) => i.type === 'disc' && (i.format === 'DVD' || i.format === 'Blu-ray'))).toBe(true);
    const q = parseQueue(await env.body(`${user}/queues/disc`), 'disc', 'all');
    expect(q.items.map((i) => i.position)).toEqual(items.map((_, i) => i + 1));
  });

  it('maps ratings: unrated, rated, not interested', async () => {
    const before = parseRatings(await env.body(`${user}/ratings/title`, { title_refs: matrix }));
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ title: { ref: matrix, title: 'The Matrix' }, userRating: null });
    expect(typeof before[0]!.predicted).toBe('number');
    await env.transport.request({
      method: 'POST',
      url: `${user}/ratings/title/actual`,
      form: { title_ref: matrix, rating: '4' },
      level: 'protected',
    });
    expect(parseRatings(await env.body(`${user}/ratings/title`, { title_refs: matrix }))[0]!.userRating).toBe(4);
    const id = /\/(\d+)$/.exec(matrix)![1];
    await env.transport.request({
      method: 'PUT',
      url: `${user}/ratings/title/actual/${id}`,
      form: { rating: 'not_interested' },
      level: 'protected',
    });
    expect(parseRatings(await env.body(`${user}/ratings/title`, { title_refs: matrix }))[0]!.userRating).toBe(
      'not_interested',
    );
  });

  it('maps recommendations and rental history', async () => {
    const recs = parseRecommendations(await env.body(`${user}/recommendations`, { max_results: '1' }));
    expect(recs.items).toHaveLength(1);
    expect(recs.total).toBeGreaterThan(1);
    expect(recs.items[0]!.predicted).toBeGreaterThan(0);
    expect(recs.items[0]!.ref).toContain('/catalog/titles/');

    const similar = parseTitlePage(await env.body((await detailOf(matrix)).similarsRef!, { max_results: '1' }))
      .items[0]!.ref;
    const similarId = Number(/\/(\d+)$/.exec(similar)![1]);
    const matrixId = Number(/\/(\d+)$/.exec(matrix)![1]);
    await insertRentals(env.svc.db, uid, [
      {
        title_id: matrixId,
        format: 'DVD',
        shipped_date: 1_700_000_000,
        returned_date: 1_700_500_000,
        watched_date: null,
        viewed_time: null,
      },
      {
        title_id: similarId,
        format: 'instant',
        shipped_date: null,
        returned_date: null,
        watched_date: 1_700_600_000,
        viewed_time: 3600,
      },
    ]);
    const h = parseRentalHistory(await env.body(`${user}/rental_history`));
    expect(h.total).toBe(2);
    expect(h.items[0]).toMatchObject({
      ref: similar,
      format: 'instant',
      formats: ['instant'],
      watchedDate: 1_700_600_000,
      shippedDate: null,
      returnedDate: null,
    });
    expect(h.items[1]).toMatchObject({
      ref: matrix,
      format: 'DVD',
      shippedDate: 1_700_000_000,
      returnedDate: 1_700_500_000,
      watchedDate: null,
    });
    const watched = parseRentalHistory(await env.body(`${user}/rental_history/watched`));
    expect(watched.items.map((i) => i.ref)).toEqual([similar]);
  });

  it('refuses a body that is not what was asked for', () => {
    expect(() =>
      parseQueue('<?xml version="1.0"?><status><status_code>500</status_code></status>', 'instant', 'all'),
    ).toThrow(/expected <queue>/);
    expect(() => parseRoot('not xml <', 'queue')).toThrow();
    expect(kids(parseRoot('<a><b>007</b></a>', 'a'), 'b')).toEqual([{ '#text': '007' }]);
  });
});
