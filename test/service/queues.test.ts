import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeQueue, readQueue } from '../../service/store/queue/queues.ts';
import type { QueueEntry } from '../../service/model/queue.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { offeredFromTomorrow, offeredWithNoEnd } from '../helpers/catalog-picks.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, parseXml, type Xml } from '../helpers/xml.ts';

const arr = (x: Xml): Xml[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

describe.each(DATABASES)('queues on %s', (kind) => {
  let svc: TestService;
  let now: number;
  /** Movies streaming now with no end date. */
  let movies: number[];
  let futureMovie: number;
  let discOnlyMovie: number;
  let series: { id: number; seasons: number[] };

  beforeAll(async () => {
    svc = await startTestService(kind);
    now = Math.floor(Date.now() / 1000);
    const k = svc.db.kysely;
    const movie = () => k.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id');
    movies = (
      await movie()
        .where('id', 'in', offeredWithNoEnd(svc.db, 'instant', now))
        .limit(600)
        .execute()
    ).map((r) => r.id);
    futureMovie = (
      await movie()
        .where('id', 'in', offeredFromTomorrow(svc.db, 'instant', now))
        .executeTakeFirstOrThrow()
    ).id;
    discOnlyMovie = (
      await movie()
        .where('id', 'not in', k.selectFrom('availability').select('title_id').where('format', '=', 'instant'))
        .executeTakeFirstOrThrow()
    ).id;
    // A series whose seasons (at least two) all stream now.
    const candidates = await k.selectFrom('titles').select('id').where('type', '=', 'series').orderBy('id').execute();
    for (const c of candidates) {
      const seasons = (
        await k
          .selectFrom('titles')
          .select('id')
          .where('parent_id', '=', c.id)
          .where('type', '=', 'season')
          .orderBy('sequence')
          .execute()
      ).map((r) => r.id);
      if (seasons.length < 2) continue;
      const ok = await k
        .selectFrom('availability')
        .select('title_id')
        .where('title_id', 'in', seasons)
        .where('format', '=', 'instant')
        .where('available_from', '<=', now - 3600)
        .where('available_until', 'is', null)
        .execute();
      if (ok.length === seasons.length) {
        series = { id: c.id, seasons };
        break;
      }
    }
    expect(movies.length).toBeGreaterThanOrEqual(501);
    expect(series).toBeDefined();
  });
  afterAll(() => svc.close());

  const subscriber = () => newSubscriber(svc, { firstName: 'Q', lastName: 'User', acceptedTos: true });
  const movieRef = (id: number) => `${svc.baseUrl}/catalog/titles/movies/${id}`;
  const seriesRef = (id: number) => `${svc.baseUrl}/catalog/titles/series/${id}`;
  const as = (u: { token: Credentials }, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: u.token });
  const add = (u: TestSubscriber, q: string, form: Record<string, string>, headers?: Record<string, string>) =>
    as(u, `/users/${u.uid}/queues/${q}`, { method: 'POST', form, ...(headers ? { headers } : {}) });
  /** Title ids of the available part, in order, checking positions are exactly 1..n. */
  async function order(u: TestSubscriber, q = 'instant'): Promise<number[]> {
    const res = await as(u, `/users/${u.uid}/queues/${q}/available`, { query: { max_results: '500' } });
    expect(res.statusCode).toBe(200);
    const items = arr(parseXml(res.body).queue.queue_item);
    expect(items.map((i) => Number(i.position))).toEqual(items.map((_, i) => i + 1));
    return items.map((i) => Number(/\/(\d+)$/.exec(i.id)![1]));
  }
  async function etagOf(u: TestSubscriber, q = 'instant'): Promise<string> {
    return parseXml((await as(u, `/users/${u.uid}/queues/${q}`)).body).queue.etag;
  }

  it('lists the two queues and renders an empty queue with exactly the historical elements', async () => {
    const u = await subscriber();
    const res = await as(u, `/users/${u.uid}/queues`);
    expect(res.statusCode).toBe(200);
    const links = arr(parseXml(res.body).resource.link);
    expect(links.map((l) => [l.title, l.rel, l.href])).toEqual([
      ['disc queue', 'http://schemas.netflix.com/queues.disc', `${svc.baseUrl}/users/${u.uid}/queues/disc`],
      ['instant queue', 'http://schemas.netflix.com/queues.instant', `${svc.baseUrl}/users/${u.uid}/queues/instant`],
    ]);
    const q = await as(u, `/users/${u.uid}/queues/instant`);
    expect(q.statusCode).toBe(200);
    expect(childNames(q.body, 'queue')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'etag',
      'link',
    ]);
    const queue = parseXml(q.body).queue;
    expect(queue.etag).toBe('0');
    expect(q.headers.etag).toMatch(/^"0-[\w-]+"$/); // the version and the bytes' hash
    expect(arr(queue.link).map((l) => l.rel)).toEqual([
      'http://schemas.netflix.com/queues.available',
      'http://schemas.netflix.com/queues.saved',
    ]);
    expect((await as(u, `/users/${u.uid}/queues/streaming`)).statusCode).toBe(404);
    const other = await subscriber();
    expect((await as(u, `/users/${other.uid}/queues/instant`)).statusCode).toBe(403);
  });

  it('adds at the end and at a position; items have the contract shape', async () => {
    const u = await subscriber();
    const [a, b, c] = movies;
    let res = await add(u, 'instant', { title_ref: movieRef(a!) });
    expect(res.statusCode).toBe(201);
    const status = parseXml(res.body).status;
    expect(status.status_code).toBe('201');
    expect(status.etag).toBe('1');
    expect(res.headers.etag).toBe('"1"');
    const item = status.resources_created.queue_item;
    expect(item.id).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/available/1/${a}`);
    expect(item.position).toBe('1');
    res = await add(u, 'instant', { title_ref: movieRef(b!) });
    expect(parseXml(res.body).status.resources_created.queue_item.position).toBe('2');
    res = await add(u, 'instant', { title_ref: movieRef(c!), position: '1' });
    expect(res.statusCode).toBe(201);
    expect(parseXml(res.body).status.resources_created.queue_item.position).toBe('1');
    expect(await order(u)).toEqual([c, a, b]);

    const q = await as(u, `/users/${u.uid}/queues/instant`);
    const names = childNames(q.body, 'queue_item');
    expect(names.slice(0, 4)).toEqual(['id', 'position', 'updated', 'link']);
    expect(names).toEqual(expect.arrayContaining(['title', 'box_art', 'category']));
    const first = arr(parseXml(q.body).queue.queue_item)[0];
    const titleLink = arr(first.link).find((l) => l.rel === 'http://schemas.netflix.com/catalog/title');
    expect(titleLink.href).toBe(movieRef(c!));
    const cats = arr(first.category);
    expect(cats.find((x) => x.scheme.endsWith('/queue_availability')).term).toBe('available now');
    expect(cats.filter((x) => x.scheme.endsWith('/title_formats')).map((x) => x.term)).toEqual(['instant']);
    expect(parseXml(q.body).queue.number_of_results).toBe('3');

    // GET of an entry by its URL forms.
    const byPos = await as(u, `/users/${u.uid}/queues/instant/available/2/${a}`);
    expect(byPos.statusCode).toBe(200);
    expect(parseXml(byPos.body).queue_item.id).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/available/2/${a}`);
    expect((await as(u, `/users/${u.uid}/queues/instant/available/${a}`)).statusCode).toBe(200);

    // sort, paging, updated_min
    expect((await as(u, `/users/${u.uid}/queues/instant`, { query: { sort: 'random' } })).statusCode).toBe(400);
    expect(
      parseXml((await as(u, `/users/${u.uid}/queues/instant`, { query: { sort: 'random' } })).body).status.message,
    ).toBe('sort is invalid');
    const alpha = await as(u, `/users/${u.uid}/queues/instant`, { query: { sort: 'alphabetical' } });
    const titles = arr(parseXml(alpha.body).queue.queue_item).map((i) => i.title.regular as string);
    expect(titles).toEqual([...titles].sort((x, y) => x.localeCompare(y)));
    const paged = parseXml(
      (await as(u, `/users/${u.uid}/queues/instant`, { query: { start_index: '1', max_results: '1' } })).body,
    ).queue;
    expect([paged.number_of_results, paged.start_index, paged.results_per_page, paged.queue_item.position]).toEqual([
      '3',
      '1',
      '1',
      '2',
    ]);
    const later = parseXml(
      (await as(u, `/users/${u.uid}/queues/instant`, { query: { updated_min: String(now + 10 * 86_400) } })).body,
    ).queue;
    expect(later.number_of_results).toBe('0');
  });

  it('moves a queued title when a position is given; 412 sub 710 without one', async () => {
    const u = await subscriber();
    for (const id of movies.slice(0, 4)) await add(u, 'instant', { title_ref: movieRef(id) });
    const res = await add(u, 'instant', { title_ref: movieRef(movies[3]!), position: '2' });
    expect(res.statusCode).toBe(201);
    expect(parseXml(res.body).status.resources_created.queue_item.position).toBe('2');
    expect(await order(u)).toEqual([movies[0], movies[3], movies[1], movies[2]]);
    const again = await add(u, 'instant', { title_ref: movieRef(movies[0]!) });
    expect(again.statusCode).toBe(412);
    const status = parseXml(again.body).status;
    expect([status.sub_code, status.message]).toEqual(['710', 'Title is already in queue']);
    // Beyond the end: to the end.
    await add(u, 'instant', { title_ref: movieRef(movies[0]!), position: '99' });
    expect(await order(u)).toEqual([movies[3], movies[1], movies[2], movies[0]]);
  });

  it('412 on a stale ETag, by header or parameter, changes nothing; a current one (quoted or bare) works', async () => {
    const u = await subscriber();
    await add(u, 'instant', { title_ref: movieRef(movies[0]!) });
    await add(u, 'instant', { title_ref: movieRef(movies[1]!) });
    const before = await order(u);
    const etag = await etagOf(u);
    for (const attempt of [
      () => add(u, 'instant', { title_ref: movieRef(movies[2]!) }, { 'if-match': '"1"' }),
      () => add(u, 'instant', { title_ref: movieRef(movies[2]!), etag: '1' }),
      () => add(u, 'instant', { title_ref: movieRef(movies[1]!), position: '1', etag: '1' }),
      () =>
        as(u, `/users/${u.uid}/queues/instant/available/${movies[0]}`, {
          method: 'DELETE',
          headers: { 'if-match': '1' },
        }),
    ]) {
      const res = await attempt();
      expect(res.statusCode).toBe(412);
      expect(parseXml(res.body).status.message).toBe('Precondition failed. Resource has been modified.');
    }
    expect(await order(u)).toEqual(before);
    expect(await etagOf(u)).toBe(etag);
    const ok = await add(u, 'instant', { title_ref: movieRef(movies[2]!) }, { 'if-match': `"${etag}"` });
    expect(ok.statusCode).toBe(201);
    const ok2 = await add(u, 'instant', { title_ref: movieRef(movies[3]!), etag: String(Number(etag) + 1) });
    expect(ok2.statusCode).toBe(201);
  });

  it('rejects unknown titles and titles not offered in the queue format (400 sub 130), bad formats (660)', async () => {
    const u = await subscriber();
    for (const ref of [movieRef(1), 'http://example.com/nothing', movieRef(discOnlyMovie)]) {
      const res = await add(u, 'instant', { title_ref: ref });
      expect(res.statusCode).toBe(400);
      expect(parseXml(res.body).status.sub_code).toBe('130');
    }
    const bad = await add(u, 'disc', { title_ref: movieRef(discOnlyMovie), format: 'VHS' });
    expect(bad.statusCode).toBe(400);
    expect([parseXml(bad.body).status.sub_code, parseXml(bad.body).status.message]).toEqual([
      '660',
      'Invalid title format',
    ]);
    const disc = await add(u, 'disc', { title_ref: movieRef(discOnlyMovie), format: 'DVD' });
    expect(disc.statusCode).toBe(201);
    const created = arr(parseXml(disc.body).status.resources_created.queue_item);
    expect(created.length).toBeGreaterThan(0);
    expect(
      arr(created[0].category)
        .filter((x) => x.scheme.endsWith('/title_formats'))
        .map((x) => x.term),
    ).toEqual(['DVD']);
    expect(await etagOf(u, 'instant')).toBe('0');
  });

  it('a series adds its seasons; one already queued gives 201 sub 640 with already_in_queue', async () => {
    const u = await subscriber();
    const seasonRef = `${svc.baseUrl}/catalog/titles/series/${series.id}/seasons/${series.seasons[0]}`;
    expect((await add(u, 'instant', { title_ref: seasonRef })).statusCode).toBe(201);
    const res = await add(u, 'instant', { title_ref: seriesRef(series.id) });
    expect(res.statusCode).toBe(201);
    const status = parseXml(res.body).status;
    expect([status.sub_code, status.message]).toEqual(['640', 'Only some titles in the set were added.']);
    expect(arr(status.resources_created.queue_item).length).toBe(series.seasons.length - 1);
    expect(arr(status.already_in_queue.link).map((l) => l.href)).toEqual([seasonRef]);
    expect(status.failed_title_refs).toBe('');
    expect(await order(u)).toEqual(series.seasons);
    // All of them queued now: 412 710.
    expect((await add(u, 'instant', { title_ref: seriesRef(series.id) })).statusCode).toBe(412);
    // Comma-separated refs, one unknown: partial with failed_title_refs.
    const mixed = await add(u, 'instant', { title_ref: `${movieRef(movies[0]!)},${movieRef(1)}` });
    expect(mixed.statusCode).toBe(201);
    const ms = parseXml(mixed.body).status;
    expect(ms.sub_code).toBe('640');
    expect(arr(ms.failed_title_refs.link).map((l) => l.href)).toEqual([movieRef(1)]);
  });

  it('puts a title released later in the saved part; it cannot be moved (620)', async () => {
    const u = await subscriber();
    await add(u, 'instant', { title_ref: movieRef(movies[0]!) });
    const res = await add(u, 'instant', { title_ref: movieRef(futureMovie) });
    expect(res.statusCode).toBe(201);
    const item = parseXml(res.body).status.resources_created.queue_item;
    expect(item.id).toBe(`${svc.baseUrl}/users/${u.uid}/queues/instant/saved/${futureMovie}`);
    expect(item.position).toBeUndefined();
    expect(arr(item.category).find((x) => x.scheme.endsWith('/queue_availability')).term).toBe('saved');
    const saved = parseXml((await as(u, `/users/${u.uid}/queues/instant/saved`)).body).queue;
    expect(saved.number_of_results).toBe('1');
    expect(parseXml((await as(u, `/users/${u.uid}/queues/instant/available`)).body).queue.number_of_results).toBe('1');
    expect(parseXml((await as(u, `/users/${u.uid}/queues/instant`)).body).queue.number_of_results).toBe('2');
    const move = await add(u, 'instant', { title_ref: movieRef(futureMovie), position: '1' });
    expect(move.statusCode).toBe(400);
    expect(parseXml(move.body).status.sub_code).toBe('620');
    expect((await as(u, `/users/${u.uid}/queues/instant/saved/${futureMovie}`)).statusCode).toBe(200);
  });

  it('the instant queue holds 500 entries: the 501st is 400 sub 650', async () => {
    const u = await subscriber();
    await changeQueue(svc.db, u.uid, 'instant', undefined, (entries) => ({
      entries: [
        ...entries,
        ...movies
          .slice(0, 500)
          .map((id): QueueEntry => ({ title_id: id, position: 0, format: 'instant', added: now, updated: now })),
      ],
      result: null,
    }));
    expect((await order(u)).length).toBe(500);
    const res = await add(u, 'instant', { title_ref: movieRef(movies[500]!) });
    expect(res.statusCode).toBe(400);
    expect([parseXml(res.body).status.sub_code, parseXml(res.body).status.message]).toEqual([
      '650',
      'Queue is too large',
    ]);
    // A move still works in a full queue.
    expect((await add(u, 'instant', { title_ref: movieRef(movies[499]!), position: '1' })).statusCode).toBe(201);
    expect((await order(u))[0]).toBe(movies[499]);
  });

  it('deletes by each URL form; 404 sub 610 for a title not queued', async () => {
    const u = await subscriber();
    for (const id of movies.slice(0, 3)) await add(u, 'instant', { title_ref: movieRef(id) });
    await add(u, 'instant', { title_ref: movieRef(futureMovie) });
    let res = await as(u, `/users/${u.uid}/queues/instant/available/2/${movies[1]}`, { method: 'DELETE' });
    expect(res.statusCode).toBe(200);
    const status = parseXml(res.body).status;
    expect(status.status_code).toBe('200');
    expect(status.etag).toBe('5');
    expect(res.headers.etag).toBe('"5"');
    expect(await order(u)).toEqual([movies[0], movies[2]]);
    res = await as(u, `/users/${u.uid}/queues/instant/available/${movies[0]}`, {
      method: 'DELETE',
      headers: { 'if-match': '"5"' },
    });
    expect(res.statusCode).toBe(200);
    expect(await order(u)).toEqual([movies[2]]);
    res = await as(u, `/users/${u.uid}/queues/instant/saved/${futureMovie}`, { method: 'DELETE' });
    expect(res.statusCode).toBe(200);
    res = await as(u, `/users/${u.uid}/queues/instant/saved/${futureMovie}`, { method: 'DELETE' });
    expect(res.statusCode).toBe(404);
    expect([parseXml(res.body).status.sub_code, parseXml(res.body).status.message]).toEqual([
      '610',
      'Title is not in Queue',
    ]);
    expect(
      (await as(u, `/users/${u.uid}/queues/instant/available/1/${movies[0]}`, { method: 'DELETE' })).statusCode,
    ).toBe(404);
    expect(await etagOf(u)).toBe('7');
  });

  it('bulk PUT replaces the available order: 200, 304 when unchanged, 412 stale, 400 sub 660', async () => {
    const u = await subscriber();
    for (const id of movies.slice(0, 3)) await add(u, 'instant', { title_ref: movieRef(id) });
    const etag = await etagOf(u);
    const form = (ids: number[]) => Object.fromEntries(ids.map((id, i) => [`title_ref[${i + 1}]`, movieRef(id)]));
    const put = (ids: number[], extra: Record<string, string> = {}, headers?: Record<string, string>) =>
      as(u, `/users/${u.uid}/queues/instant`, {
        method: 'PUT',
        form: { ...form(ids), ...extra },
        ...(headers ? { headers } : {}),
      });
    const wanted = [movies[2]!, movies[3]!, movies[0]!];
    const res = await put(wanted, {}, { 'if-match': `"${etag}"` });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).status.etag).toBe(String(Number(etag) + 1));
    expect(await order(u)).toEqual(wanted);
    const same = await put(wanted);
    expect(same.statusCode).toBe(304);
    expect(await etagOf(u)).toBe(String(Number(etag) + 1));
    const stale = await put([movies[0]!], { etag });
    expect(stale.statusCode).toBe(412);
    expect(await order(u)).toEqual(wanted);
    const badFormat = await put([movies[0]!], { 'format[1]': 'Betamax' });
    expect(badFormat.statusCode).toBe(400);
    expect(parseXml(badFormat.body).status.sub_code).toBe('660');
    const unknown = await put([movies[0]!, 1]);
    expect(unknown.statusCode).toBe(400);
    expect(await order(u)).toEqual(wanted);
    // Disc queue: format[n].
    const disc = await as(u, `/users/${u.uid}/queues/disc`, {
      method: 'PUT',
      form: { 'title_ref[1]': movieRef(discOnlyMovie), 'format[1]': 'Blu-ray-3D' },
    });
    expect(disc.statusCode).toBe(400);
    expect(parseXml(disc.body).status.sub_code).toBe('660');
  });

  it('a gzip client reading the queue gets the queue, not the write that made its version', async () => {
    const u = await subscriber();
    const gzip = { 'accept-encoding': 'gzip' };
    const write = await add(u, 'instant', { title_ref: movieRef(movies[0]!) }, gzip);
    expect(write.statusCode).toBe(201);
    const read = await as(u, `/users/${u.uid}/queues/instant`, { headers: gzip });
    // One version, two representations: the read's ETag is the write's version and the queue's hash.
    expect(read.headers.etag).toMatch(new RegExp(`^${(write.headers.etag as string).slice(0, -1)}-`));
    const body = gunzipSync(read.rawPayload).toString();
    expect(body).toContain('<queue>');
    expect(body).not.toContain('<status>');
  });

  it('keeps positions 1..n under 20 concurrent moves with If-Match: the result replays the winners in ETag order', async () => {
    const u = await subscriber();
    const ids = movies.slice(0, 10);
    await changeQueue(svc.db, u.uid, 'instant', undefined, (entries) => ({
      entries: [
        ...entries,
        ...ids.map((id): QueueEntry => ({ title_id: id, position: 0, format: 'instant', added: now, updated: now })),
      ],
      result: null,
    }));
    const start = Number(await etagOf(u));
    const initial = await order(u);
    const moves = Array.from({ length: 20 }, (_, i) => ({
      id: ids[(i * 7) % ids.length]!,
      position: ((i * 3) % ids.length) + 1,
      ifMatch: start + (i % 5),
    }));
    const results = await Promise.all(
      moves.map((m) =>
        add(
          u,
          'instant',
          { title_ref: movieRef(m.id), position: String(m.position) },
          { 'if-match': `"${m.ifMatch}"` },
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.every((c) => c === 201 || c === 412)).toBe(true);
    expect(codes.filter((c) => c === 201).length).toBeGreaterThan(0);
    expect(codes.filter((c) => c === 412).length).toBeGreaterThan(0);
    const winners = moves
      .map((m, i) => ({
        ...m,
        etag: results[i]!.statusCode === 201 ? Number(parseXml(results[i]!.body).status.etag) : null,
      }))
      .filter((m) => m.etag !== null)
      .sort((a, b) => a.etag! - b.etag!);
    // Each winner's new ETag is its If-Match + 1: the versions form a chain.
    for (const w of winners) expect(w.etag).toBe(w.ifMatch + 1);
    const replay = [...initial];
    for (const w of winners) {
      replay.splice(replay.indexOf(w.id), 1);
      replay.splice(Math.min(w.position - 1, replay.length), 0, w.id);
    }
    expect(await order(u)).toEqual(replay);
    const state = await readQueue(svc.db, u.uid, 'instant');
    expect(state.entries.map((e) => e.position)).toEqual(ids.map((_, i) => i + 1));
    expect(state.version).toBe(start + winners.length);
  });
});
