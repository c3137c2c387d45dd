import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Db } from '../../service/store/db.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { DATABASES, openTestDb, TEST_BASE } from '../helpers/service.ts';
import { firstMovieId } from '../helpers/catalog-picks.ts';

/** One service on loopback, with or without the kept-GET path, counting what reaches Fastify's routes. */
interface Side {
  app: FastifyInstance;
  db: Db;
  port: number;
  clock: { now: number | undefined };
  /** Requests Fastify saw (its onRequest hook): the kept-GET path answers the rest itself. */
  routed: number;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  /** Raw header lines as sent, the Date's value replaced (it is checked for its form). */
  headers: string[];
  body: Buffer;
}

const CONSUMERS = {
  roomy: { key: 'kept-roomy', secret: 'roomy-secret', perSecond: 100_000, perDay: 100_000_000 },
  oneASecond: { key: 'kept-second', secret: 'second-secret', perSecond: 1, perDay: 100_000_000 },
  oneADay: { key: 'kept-day', secret: 'day-secret', perSecond: 100, perDay: 1 },
};
type ConsumerName = keyof typeof CONSUMERS;

async function startSide(kind: (typeof DATABASES)[number], keptGets: boolean): Promise<Side> {
  const { db, drop } = await openTestDb(kind);
  for (const [name, c] of Object.entries(CONSUMERS)) await createConsumer(db, { name, ...c });
  const clock: { now: number | undefined } = { now: undefined };
  const app = buildServer({ db, baseUrl: TEST_BASE, keptGets, now: () => clock.now ?? Math.floor(Date.now() / 1000) });
  const side: Side = { app, db, port: 0, clock, routed: 0, close: async () => {} };
  app.addHook('onRequest', (_req, _reply, done) => {
    side.routed++;
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  side.port = (app.server.address() as AddressInfo).port;
  side.close = async () => {
    await app.close();
    await db.close();
    await drop();
  };
  return side;
}

/** Sends one GET over a fresh loopback connection and reads the answer as it came off the socket. */
function get(side: Side, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: side.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: headerLines(res.rawHeaders), body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function headerLines(raw: string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const [name, value] = [raw[i]!, raw[i + 1]!];
    if (name.toLowerCase() === 'date') expect(value).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    lines.push(`${name}: ${name.toLowerCase() === 'date' ? '<date>' : value}`);
  }
  return lines;
}

/** A request's headers as a client signs it for one side (its own Host), with a fresh nonce. */
function signed(side: Side, path: string, consumer: ConsumerName, extra: Record<string, string> = {}) {
  const url = `http://127.0.0.1:${side.port}${path}`;
  return { ...extra, authorization: authHeader(CONSUMERS[consumer], 'GET', url) };
}

describe.each(DATABASES)('the kept-GET path on %s answers byte for byte as the routes do', (kind) => {
  let lean: Side;
  let routes: Side;
  let movie: string;
  const expand = '?expand=synopsis,cast,directors';

  beforeAll(async () => {
    [lean, routes] = await Promise.all([startSide(kind, true), startSide(kind, false)]);
    movie = `/catalog/titles/movies/${await firstMovieId(lean.db)}`;
  });
  afterAll(async () => {
    await Promise.all([lean?.close(), routes?.close()]);
  });

  /** The same request to both sides; returns both answers after checking they are the same bytes. */
  async function both(path: string, consumer: ConsumerName, extra: Record<string, string> = {}) {
    const a = await get(lean, path, signed(lean, path, consumer, extra));
    const b = await get(routes, path, signed(routes, path, consumer, extra));
    expect(a.status).toBe(b.status);
    expect(a.headers).toEqual(b.headers);
    expect(a.body.equals(b.body)).toBe(true);
    return a;
  }

  /** Counts what reached the routes on the lean side while `run` ran. */
  async function routedDuring(run: () => Promise<unknown>): Promise<number> {
    const before = lean.routed;
    await run();
    return lean.routed - before;
  }

  it('200 for a kept title, plain and gzipped, without the routes', async () => {
    const first = await both(movie + expand, 'roomy'); // rendered by the route, then kept
    expect(first.status).toBe(200);
    expect(await routedDuring(() => both(movie + expand, 'roomy'))).toBe(0);
    expect(await routedDuring(() => both(movie + expand, 'roomy', { 'accept-encoding': 'gzip, deflate' }))).toBe(0);
    const gz = await both(movie + expand, 'roomy', { 'accept-encoding': 'gzip' });
    expect(gz.headers).toContain('content-encoding: gzip');
    // Once the generation's second of trust is over, the path reads it again itself.
    lean.db.caches.generation = undefined;
    expect(await routedDuring(() => both(movie + expand, 'roomy'))).toBe(0);
    const json = movie + expand + '&output=json';
    await both(json, 'roomy');
    expect(await routedDuring(() => both(json, 'roomy'))).toBe(0);
  });

  it('304 when If-None-Match holds the kept ETag; 200 when it does not', async () => {
    const first = await both(movie + expand, 'roomy');
    const etag = first.headers.find((h) => h.startsWith('etag: '))!.slice(6);
    const revalidated = await both(movie + expand, 'roomy', { 'if-none-match': `W/"x", ${etag}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect((await both(movie + expand, 'roomy', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('401 for a bad signature and for a replayed nonce, answered by the routes as before', async () => {
    await both(movie + expand, 'roomy');
    const forged = { ...CONSUMERS.roomy, secret: 'not-the-secret' };
    const badA = await get(lean, movie + expand, {
      authorization: authHeader(forged, 'GET', `http://127.0.0.1:${lean.port}${movie}${expand}`),
    });
    const badB = await get(routes, movie + expand, {
      authorization: authHeader(forged, 'GET', `http://127.0.0.1:${routes.port}${movie}${expand}`),
    });
    expect(badA.status).toBe(401);
    expect([badA.headers, badA.body.toString()]).toEqual([badB.headers, badB.body.toString()]);

    const headerA = signed(lean, movie + expand, 'roomy');
    const headerB = signed(routes, movie + expand, 'roomy');
    expect((await get(lean, movie + expand, headerA)).status).toBe(200);
    expect((await get(routes, movie + expand, headerB)).status).toBe(200);
    const [replayA, replayB] = [await get(lean, movie + expand, headerA), await get(routes, movie + expand, headerB)];
    expect(replayA.status).toBe(401);
    expect(replayA.body.toString()).toContain('Nonce');
    expect([replayA.headers, replayA.body.toString()]).toEqual([replayB.headers, replayB.body.toString()]);
  });

  it('403 over the per-second and the per-day quota, each request counted once', async () => {
    await both(movie + expand, 'roomy');
    const now = Math.floor(Date.now() / 1000);
    lean.clock.now = routes.clock.now = now;
    try {
      expect((await both(movie + expand, 'oneASecond')).status).toBe(200);
      const refused = await both(movie + expand, 'oneASecond');
      expect(refused.status).toBe(403);
      expect(refused.headers).toContain('retry-after: 1');
      expect((await both(movie + expand, 'oneADay')).status).toBe(200);
      const overDay = await both(movie + expand, 'oneADay');
      expect(overDay.status).toBe(403);
      expect(overDay.headers.some((h) => h.startsWith('retry-after: '))).toBe(true);
      // The next second lets one more through on each side, as the count is exact.
      lean.clock.now = routes.clock.now = now + 1;
      expect((await both(movie + expand, 'oneASecond')).status).toBe(200);
      expect((await both(movie + expand, 'oneASecond')).status).toBe(403);
    } finally {
      lean.clock.now = routes.clock.now = undefined;
    }
  });

  it('404 for a title that does not exist, and an unkept page, through the routes', async () => {
    expect((await both('/catalog/titles/movies/2147483000' + expand, 'roomy')).status).toBe(404);
    expect((await both('/catalog/titles/movies/2147483000' + expand, 'roomy')).status).toBe(404);
    expect((await both(movie + '?expand=synopsis', 'roomy')).status).toBe(200);
  });
});
