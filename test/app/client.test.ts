import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createClient, type Client } from '../../electron/core/client/index.ts';
import { BulkRun, runBulk } from '../../electron/core/queue/bulk.ts';
import { ServiceError, type ServiceRequest, type Transport } from '../../electron/core/types.ts';
import type { QueueProgress } from '../../shared/models.ts';
import { insertRentals } from '../../service/store/subscriber/history.ts';
import { firstSeriesRefs } from '../helpers/catalog-picks.ts';
import { startLiveClientEnv, type LiveClientEnv } from './helpers/live-client.ts';

/** The resource client against the real service, through the app's real transport. */
let env: LiveClientEnv;
let client: Client;
let matrix: string;

const requests = () => env.log.splice(0);

beforeAll(async () => {
  env = await startLiveClientEnv();
  client = createClient(env.transport, { baseUrl: () => env.svc.url });
});
afterAll(() => env?.close());
beforeEach(() => {
  env.log.length = 0;
});

const seriesRefs = () => firstSeriesRefs(env.svc.db, env.svc.url);

describe('catalog', () => {
  it('searches and autocompletes', async () => {
    const page = await client.search('The Matrix', { max: 5 });
    const m = page.items.find((t) => t.title === 'The Matrix');
    expect(m).toMatchObject({ type: 'movie', year: 1999 });
    matrix = m!.ref;
    expect(page).toMatchObject({ start: 0, perPage: 5 });
    const next = await client.search('The Matrix', { start: 1, max: 1 });
    expect(next.items).toHaveLength(1);
    expect(next.start).toBe(1);
    expect(await client.autocomplete('matri')).toContain('The Matrix');
    expect(requests().map((r) => r.level)).toEqual(['signed', 'signed', 'key']);
  });

  it('shows a title in one expanded request, its similars by name', async () => {
    const d = await client.title(matrix, { type: 'movie' });
    expect(d.title).toBe('The Matrix');
    expect(d.cast.length).toBeGreaterThan(0);
    expect(d.directors.map((p) => p.name)).toEqual(['The Wachowskis']);
    expect(d.similars.length).toBeGreaterThan(0);
    expect(d.similars.every((t) => t.ref !== matrix && t.name !== '')).toBe(true);
    expect(d.similarsRef).toBe(`${matrix}/similars`);
    expect(d.synopsis).not.toBe('');
    expect(d.availability.length).toBe(3);
    expect(d.awards).toEqual([]);
    const [req, ...more] = requests();
    expect(more).toEqual([]);
    expect(req!.query).toEqual({
      v: '1.5',
      expand: 'synopsis,cast,directors,formats,screen formats,languages and audio,awards,similars,discs',
    });
  });

  it("fetches a title's similars with box art from their list, in one request", async () => {
    const { similars: names, similarsRef } = await client.title(matrix, { type: 'movie' });
    requests();
    const page = await client.similars(similarsRef!);
    expect(page.items.map((t) => t.ref)).toEqual(names.map((n) => n.ref));
    expect(page.items.every((t) => t.boxArt.medium.includes('/box_art/medium/'))).toBe(true);
    expect(requests()).toEqual([expect.objectContaining({ url: `${matrix}/similars`, query: { max_results: '25' } })]);
  });

  it('shows a series with its seasons and episodes, and a season with its episodes', async () => {
    const refs = await seriesRefs();
    const s = await client.title(refs.series);
    expect(s.type).toBe('series');
    expect(s.seasons.map((x) => x.ref)).toContain(refs.season);
    expect(s.episodes.length).toBeGreaterThan(s.seasons.length);
    const season = await client.title(refs.season, { type: 'season' });
    expect(season.type).toBe('season');
    expect(season.series?.ref).toBe(refs.series);
    expect(season.episodes.length).toBeGreaterThan(0);
    const log = requests().filter((r) => r.query?.expand !== undefined);
    expect(log).toHaveLength(2);
    expect(log[0]!.query!.expand).toContain('seasons,episodes');
    expect(log[1]!.query!.expand).not.toContain('seasons');
    expect(log[1]!.query!.expand).toContain('episodes');
  });

  it('shows a person with the filmography as titles with box art', async () => {
    const director = (await client.title(matrix)).directors[0]!;
    const p = await client.person(director.ref);
    expect(p).toMatchObject({ ref: director.ref, name: 'The Wachowskis' });
    expect(p.filmography.map((f) => f.ref)).toEqual([matrix]);
    expect(p.filmography[0]).toMatchObject({ title: 'The Matrix', year: 1999, type: 'movie' });
    expect(p.filmography[0]!.boxArt.large).toContain('/box_art/large/');
  });

  it('finds people by name, paged', async () => {
    const page = await client.people('wachowski');
    expect(page.items.map((p) => p.name)).toContain('The Wachowskis');
    const hitchcock = await client.people('hitchcock', { max: 1 });
    expect(hitchcock).toMatchObject({ start: 0, perPage: 1 });
    expect(hitchcock.items[0]!.name).toBe('Alfred Hitchcock');
  });

  it('lists categories', async () => {
    const genres = await client.categories('genres');
    expect(genres.map((g) => g.term)).toContain('Sci-Fi & Fantasy');
    const ratings = await client.categories('mpaa_ratings');
    expect(ratings.map((g) => g.term)).toContain('PG-13');
  });
});

describe('user', () => {
  it('reads the current user once and remembers the id', async () => {
    const fresh = createClient(env.transport, { baseUrl: () => `${env.svc.url}/` });
    expect(fresh.userId()).toBeNull();
    const [a, b] = await Promise.all([fresh.currentUser(), fresh.currentUser()]);
    expect(a).toEqual({
      id: env.svc.subscriber.id,
      firstName: 'Avery',
      lastName: 'App',
      nickname: 'Avery',
      canInstantWatch: true,
      preferredFormats: ['instant', 'DVD'],
    });
    expect(b).toEqual(a);
    expect(fresh.userId()).toBe(env.svc.subscriber.id);
    await fresh.queue('instant');
    const log = requests();
    expect(log.map((r) => r.url)).toEqual([
      `${env.svc.url}/users/current`,
      `${env.svc.url}/users/${env.svc.subscriber.id}/queues/instant`,
    ]);
    expect(log[0]!.query).toEqual({ expand: 'user' });
  });

  it('uses a user id it is given, and forgets it', async () => {
    const fresh = createClient(env.transport, { baseUrl: () => env.svc.url });
    fresh.setUser(env.svc.subscriber.id);
    await fresh.recommendations({ max: 1 });
    expect(requests().map((r) => r.url)).toEqual([`${env.svc.url}/users/${env.svc.subscriber.id}/recommendations`]);
    fresh.setUser(null);
    expect(fresh.userId()).toBeNull();
  });

  it('follows /users/current when the service does not inline the user', async () => {
    const noExpand: Transport = {
      request: (req) =>
        env.transport.request({
          ...req,
          query: Object.fromEntries(Object.entries(req.query ?? {}).filter(([k]) => k !== 'expand')),
        }),
    };
    const fresh = createClient(noExpand, { baseUrl: () => env.svc.url });
    expect((await fresh.currentUser()).id).toBe(env.svc.subscriber.id);
    expect(requests().map((r) => r.url)).toEqual([
      `${env.svc.url}/users/current`,
      `${env.svc.url}/users/${env.svc.subscriber.id}`,
    ]);
  });
});

describe('queues', () => {
  let titles: string[];
  let discs: string[];

  beforeAll(async () => {
    const found = (await client.search('the', { max: 50 })).items;
    titles = found
      .filter((t) => t.formats.includes('instant'))
      .slice(0, 4)
      .map((t) => t.ref);
    expect(titles).toHaveLength(4);
    // Discs out now (a disc window that starts later puts a title in the saved part, with no position).
    const outNow = discsOutNow();
    discs = found
      .filter(
        (t) =>
          t.type === 'movie' &&
          t.formats.includes('Blu-ray') &&
          t.formats.includes('DVD') &&
          outNow.has(Number(t.ref.split('/').pop())),
      )
      .slice(0, 2)
      .map((t) => t.ref);
    expect(discs).toHaveLength(2);
  });

  it('adds, moves and removes, each write on the last etag', async () => {
    let q = await client.queue('instant');
    expect(q.items).toEqual([]);
    let etag = q.etag;
    for (const ref of titles.slice(0, 3)) {
      const w = await client.queueAdd('instant', ref, etag);
      expect(w.statusCode).toBe(201);
      expect(w.items.map((i) => i.ref)).toEqual([ref]);
      expect(w.etag).not.toBe(etag);
      etag = w.etag;
    }
    const adds = requests().filter((r) => r.method === 'POST');
    expect(adds.map((r) => r.ifMatch)).toEqual([q.etag, expect.any(String), expect.any(String)]);

    const moved = await client.queueMove('instant', titles[2]!, 1, etag);
    expect(moved.etag).not.toBe(etag);
    q = await client.queue('instant');
    expect(q.etag).toBe(moved.etag);
    expect(q.items.map((i) => i.ref)).toEqual([titles[2], titles[0], titles[1]]);

    const stale = await client.queueMove('instant', titles[1]!, 1, etag).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ServiceError);
    expect((stale as ServiceError).appError).toMatchObject({ kind: 'conflict', status: 412 });

    const removed = await client.queueRemove(q.items[1]!.itemRef, q.etag);
    expect(removed).toMatchObject({ statusCode: 200, changed: true });
    expect(removed.etag).not.toBe(q.etag);
    q = await client.queue('instant', { view: 'available', max: 1 });
    expect(q).toMatchObject({ view: 'available', total: 2, etag: removed.etag });
    expect(q.items.map((i) => i.ref)).toEqual([titles[2]]);
    const saved = await client.queue('instant', { view: 'saved' });
    expect(saved.items).toEqual([]);
  });

  it('adds to the disc queue in a format, at a position', async () => {
    const q = await client.queue('disc');
    const first = await client.queueAdd('disc', discs[0]!, q.etag, { format: 'Blu-ray' });
    expect(first.items[0]).toMatchObject({ format: 'Blu-ray', formats: ['Blu-ray'] });
    const second = await client.queueAdd('disc', discs[1]!, first.etag, { position: 1 });
    expect(second.items[0]).toMatchObject({ ref: discs[1], position: 1 });
    const after = await client.queue('disc');
    expect(after.items.map((i) => i.ref)).toEqual([discs[1], discs[0]]);
    expect(after.items[1]!.format).toBe('Blu-ray');
  });

  it('replaces the order with one PUT, and learns the service has bulk replace', async () => {
    const before = await client.queue('instant');
    expect(client.bulkReplaceSupport()).toBeUndefined();
    requests();

    const order = [titles[3]!, ...before.items.map((i) => i.ref).reverse()];
    const progress: QueueProgress[] = [];
    const run = new BulkRun('instant', (p) => progress.push(p), 'replace');
    expect(await runBulk(client, run, before, order)).toBe('applied');
    expect(client.bulkReplaceSupport()).toBe(true);
    expect(
      requests()
        .filter((r) => r.method !== undefined && r.method !== 'GET')
        .map((r) => [r.method, r.ifMatch]),
    ).toEqual([['PUT', before.etag]]);
    expect(progress).toEqual([{ kind: 'instant', done: 1, total: 1, method: 'replace', finished: true }]);
    const after = await client.queue('instant');
    expect(after.items.map((i) => i.ref)).toEqual(order);

    const same = await client.queueReplace('instant', order, after.etag);
    expect(same).toMatchObject({ changed: false, etag: after.etag });
  });

  it('falls back to single removes and moves when PUT is not allowed, and remembers it', async () => {
    const puts: ServiceRequest[] = [];
    const noPut: Transport = {
      async request(req) {
        if (req.method === 'PUT' && /\/queues\/(instant|disc)$/.test(req.url)) {
          puts.push(req);
          throw new ServiceError({ kind: 'invalid', message: 'Method not allowed', status: 405 });
        }
        return env.transport.request(req);
      },
    };
    const legacy = createClient(noPut, { baseUrl: () => env.svc.url });
    const before = await legacy.queue('instant');
    expect(before.items.length).toBe(3);
    const [a, b, c] = before.items.map((i) => i.ref) as [string, string, string];
    // Drop the first, swap the others.
    const run = new BulkRun('instant', () => {}, 'replace');
    expect(await runBulk(legacy, run, before, [c, b])).toBe('applied');
    expect(run.method).toBe('moves');
    expect(legacy.bulkReplaceSupport()).toBe(false);
    const after = await legacy.queue('instant');
    expect(after.items.map((i) => i.ref)).toEqual([c, b]);
    expect(after.items.map((i) => i.ref)).not.toContain(a);

    await runBulk(legacy, new BulkRun('instant', () => {}, 'moves'), after, [b, c]);
    expect((await legacy.queue('instant')).items.map((i) => i.ref)).toEqual([b, c]);
    expect(puts).toHaveLength(1);
  });
});

describe('ratings, states, recommendations, history', () => {
  it('sets, changes and clears a rating', async () => {
    const [before] = await client.ratings([matrix]);
    expect(before).toMatchObject({ title: { ref: matrix }, userRating: null });
    expect(typeof before!.predicted).toBe('number');

    const set = await client.setRating(matrix, 4);
    expect(set.status.statusCode).toBe(201);
    expect(set.rating).toMatchObject({ title: { ref: matrix }, userRating: 4 });
    expect((await client.ratings([matrix]))[0]!.userRating).toBe(4);

    const changed = await client.setRating(matrix, 2);
    expect(changed.rating.userRating).toBe(2);
    expect((await client.ratings([matrix]))[0]!.userRating).toBe(2);

    await client.setRating(matrix, 'not_interested', { rated: true });
    expect((await client.ratings([matrix]))[0]!.userRating).toBe('not_interested');

    const cleared = await client.setRating(matrix, null);
    expect(cleared.rating.userRating).toBeNull();
    expect((await client.ratings([matrix]))[0]!.userRating).toBeNull();
    const methods = requests()
      .filter((r) => r.method && r.method !== 'GET')
      .map((r) => r.method);
    expect(methods).toEqual(['POST', 'POST', 'PUT', 'PUT', 'PUT']);
  });

  it('reads title states', async () => {
    const q = await client.queue('instant');
    const queued = q.items[0]!.ref;
    const states = await client.titleStates([queued, matrix]);
    expect(states.map((s) => s.ref)).toEqual([queued, matrix]);
    expect(states[0]!.instant).toContain('In Queue');
    expect(states[1]!.instant).not.toContain('In Queue');
  });

  it('pages recommendations', async () => {
    const first = await client.recommendations({ max: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.total).toBeGreaterThan(3);
    expect(first.items.every((r) => r.predicted > 0 && r.ref.includes('/catalog/titles/'))).toBe(true);
    const second = await client.recommendations({ start: 3, max: 3 });
    expect(second.start).toBe(3);
    expect(second.items.map((r) => r.ref)).not.toContain(first.items[0]!.ref);
  });

  it('reads the rental history and its views', async () => {
    const id = (ref: string) => Number(/(\d+)$/.exec(ref)![1]);
    const other = (await client.title(matrix)).similars[0]!.ref;
    await insertRentals(env.svc.db, env.svc.subscriber.id, [
      {
        title_id: id(matrix),
        format: 'Blu-ray',
        shipped_date: 1_700_000_000,
        returned_date: 1_700_400_000,
        watched_date: null,
        viewed_time: null,
      },
      {
        title_id: id(other),
        format: 'instant',
        shipped_date: null,
        returned_date: null,
        watched_date: 1_700_800_000,
        viewed_time: 1200,
      },
    ]);
    const all = await client.rentalHistory();
    expect(all.total).toBe(2);
    expect(all.items.map((i) => [i.ref, i.format])).toEqual([
      [other, 'instant'],
      [matrix, 'Blu-ray'],
    ]);
    expect(all.items[1]).toMatchObject({ shippedDate: 1_700_000_000, returnedDate: 1_700_400_000, watchedDate: null });
    expect((await client.rentalHistory('watched')).items.map((i) => i.ref)).toEqual([other]);
    expect((await client.rentalHistory('returned', { max: 1 })).items.map((i) => i.ref)).toEqual([matrix]);
  });
});

/** Ids of the run's demo titles whose DVD and Blu-ray windows are both open now and for another day. */
function discsOutNow(): Set<number> {
  const db = new Database(inject('sqliteTemplate'), { readonly: true, fileMustExist: true });
  try {
    const now = Math.floor(Date.now() / 1000);
    const rows = db
      .prepare(
        `SELECT title_id AS id FROM availability WHERE format IN ('DVD', 'Blu-ray') AND available_from <= ? AND (available_until IS NULL OR available_until > ?)
         GROUP BY title_id HAVING COUNT(*) = 2`,
      )
      .all(now, now + 86400) as Array<{ id: number }>;
    return new Set(rows.map((r) => r.id));
  } finally {
    db.close();
  }
}
