import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogCommand } from '../../service/cli/catalog.ts';
import { options } from '../../service/cli/options.ts';
import type { StreamLimits } from '../../service/resources/changes/hub.ts';
import { buildServer } from '../../service/server.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import { EventStreamClient, type ReceivedEvent } from '../helpers/event-stream.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { DATABASES, openTestDb, TEST_BASE } from '../helpers/service.ts';
import { signedFetch } from '../helpers/signed-fetch.ts';
import { unlimitedSubscriber, type SignedInSubscriber } from '../helpers/subscriber.ts';

interface Node {
  app: FastifyInstance;
  url: string;
}

/** A service node on loopback over `db`, as `npm run service` runs one. */
async function startNode(db: Db, limits?: Partial<StreamLimits>): Promise<Node> {
  const app = buildServer({ db, baseUrl: TEST_BASE, ...(limits ? { changeStreams: limits } : {}) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const dataOf = (e: ReceivedEvent) => JSON.parse(e.data) as Record<string, unknown>;
const statusEtag = (body: string) => /<etag>(\d+)<\/etag>/.exec(body)?.[1];

/**
 * Issue 26, item 1: `GET /users/UID/changes`, a signed Server-Sent Events stream of a subscriber's
 * changes, over real HTTP on both stores; on PostgreSQL across two nodes sharing one database.
 */
describe.each(DATABASES)('the change stream on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let node: Node;
  let sub: SignedInSubscriber;
  let titles: number[];
  const streams: EventStreamClient[] = [];
  const ref = (id: number) => `${TEST_BASE}/catalog/titles/movies/${id}`;

  beforeAll(async () => {
    const opened = await openTestDb(kind);
    ({ db, drop } = opened);
    sub = await unlimitedSubscriber(db, 'Live', {
      login: `live-${kind}@example.com`,
      password: 'pw-live-123',
      firstName: 'Li',
      lastName: 'Ve',
    });
    titles = await instantMovieIds(db, 8);
    node = await startNode(db, { perUser: 3, perConsumer: 5 });
  }, 60_000);
  // Each test starts with no stream of the earlier ones open.
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(async () => {
    await node.app.close();
    await db.close();
    await drop();
  });

  const open = async (token: Credentials = sub.token, headers: Record<string, string> = {}, at = node) => {
    const s = await EventStreamClient.open(at.url, `/users/${sub.userId}/changes`, sub.consumer, token, headers);
    streams.push(s);
    return s;
  };
  const write = (path: string, form: Record<string, string>, at = node) =>
    signedFetch(at.url, sub.consumer, sub.token, 'POST', `/users/${sub.userId}${path}`, form);

  it('a signed write reaches the stream: queue, title state, rating and catalog events, numbered', async () => {
    const s = await open();
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const ready = await s.waitFor((e) => e.event === 'ready');
    const added = await write('/queues/instant', { title_ref: ref(titles[0]!) });
    expect(added.status, added.body).toBe(201);
    const queue = await s.waitFor((e) => e.event === 'queue' && dataOf(e).etag === statusEtag(added.body));
    expect(dataOf(queue).resource).toBe(`${TEST_BASE}/users/${sub.userId}/queues/instant`);
    const state = await s.waitFor((e) => e.event === 'title_state');
    expect(dataOf(state).title_ref).toBe(ref(titles[0]!));
    const rated = await write('/ratings/title/actual', { title_ref: ref(titles[1]!), rating: '4' });
    expect(rated.status, rated.body).toBe(201);
    const rating = await s.waitFor((e) => e.event === 'rating');
    expect(dataOf(rating)).toMatchObject({ title_ref: ref(titles[1]!), rating: 4 });
    // The operator's command, as `npm run service -- catalog availability` runs it.
    expect(
      await runCatalogCommand(db, 'availability', options([String(titles[2]), '--from', 'now', '--until', 'never'])),
    ).toBe(0);
    const catalog = await s.waitFor((e) => e.event === 'catalog');
    expect(dataOf(catalog).generation).toBeGreaterThan(0);
    const ids = s.events.slice(s.events.indexOf(ready)).map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a stream resumed with Last-Event-ID misses no change made while it was away', async () => {
    const first = await open();
    const ready = await first.waitFor((e) => e.event === 'ready');
    first.close();
    const etags: string[] = [];
    for (const id of titles.slice(3, 6)) {
      const res = await write('/queues/instant', { title_ref: ref(id), position: '1' });
      expect(res.status, res.body).toBe(201);
      etags.push(statusEtag(res.body)!);
    }
    const resumed = await open(sub.token, { 'last-event-id': ready.id! });
    await resumed.waitFor((e) => e.event === 'ready');
    const seen = resumed.events.filter((e) => e.event === 'queue').map((e) => dataOf(e).etag);
    expect(seen).toEqual(expect.arrayContaining(etags));
    resumed.close();
  });

  it('refuses a Last-Event-ID that is no number, in words', async () => {
    const s = await open(sub.token, { 'last-event-id': 'yesterday' });
    expect(s.status).toBe(400);
    expect(s.body).toContain('Last-Event-ID is invalid');
  });

  it('checks OAuth as any protected resource: a bad signature is 401, no token 400', async () => {
    const forged = await EventStreamClient.open(
      node.url,
      `/users/${sub.userId}/changes`,
      { key: sub.consumer.key, secret: 'not-the-secret' },
      sub.token,
    );
    expect(forged.status).toBe(401);
    const res = await fetch(`${node.url}/users/${sub.userId}/changes?oauth_consumer_key=${sub.consumer.key}`);
    expect(res.status).toBe(400);
  });

  it('limits open streams per subscriber and per application with a status body', async () => {
    // The streams of the tests before are closed; the service hears it within moments.
    await expect.poll(async () => (await open()).status, { timeout: 10_000, interval: 200 }).toBe(200);
    const mine = [streams.at(-1)!, await open(), await open()];
    for (const s of mine) expect(s.status).toBe(200);
    const fourth = await open();
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('30');
    expect(fourth.body).toContain('<status_code>429</status_code>');
    expect(fourth.body).toContain('Too many open change streams for this subscriber');
    // Another subscriber of the same application: two more reach the application's five.
    const other = await createUser(db, {
      login: `other-${kind}@example.com`,
      password: 'pw-other-1',
      firstName: 'O',
      lastName: 'T',
    });
    const otherToken = await issueAccessToken(db, sub.consumer.key, other.id);
    const openOther = async () => {
      const s = await EventStreamClient.open(node.url, `/users/${other.id}/changes`, sub.consumer, {
        key: otherToken.token,
        secret: otherToken.secret,
      });
      streams.push(s);
      return s;
    };
    expect((await openOther()).status).toBe(200);
    expect((await openOther()).status).toBe(200);
    const over = await openOther();
    expect(over.status).toBe(429);
    expect(over.body).toContain('Too many open change streams for this application');
    // A closed stream frees its place.
    mine[0]!.close();
    await expect.poll(async () => (await openOther()).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });

  it("a revoked token's stream ends within seconds, saying why", async () => {
    const access = await issueAccessToken(db, sub.consumer.key, sub.userId);
    const token = { key: access.token, secret: access.secret };
    await expect.poll(async () => (await open(token)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    const s = streams.at(-1)!;
    await s.waitFor((e) => e.event === 'ready');
    const revoked = await signedFetch(node.url, sub.consumer, token, 'POST', '/oauth/revoke');
    expect(revoked.status, revoked.body).toBe(200);
    await s.waitFor((e) => e.event === 'revoked', 5_000);
    await s.waitForEnd(5_000);
    expect((await open(token)).status).toBe(401);
  });

  it('a client that stops reading is dropped, not buffered for without limit', async () => {
    const strict = await startNode(db, { perUser: 1, maxBufferedBytes: 4096, pollMs: 200 });
    try {
      const url = new URL(`${strict.url}/users/${sub.userId}/changes`);
      const socket = connect(Number(url.port), url.hostname);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => undefined);
      const answered = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Authorization: ${authHeader(sub.consumer, 'GET', url.toString(), {}, sub.token)}\r\n\r\n`,
      );
      expect(await answered).toMatch(/^HTTP\/1\.1 200/);
      socket.pause(); // reads nothing more: the kernel's buffers fill, then the service's
      // Megabytes of catalog events, written to the change table as its triggers would.
      for (let batch = 0; batch < 40; batch++)
        await db.kysely
          .insertInto('changes')
          .values(
            Array.from({ length: 1000 }, (_, i) => ({
              user_id: null,
              kind: 'catalog',
              subject: 'generation',
              value: String(1_000_000 + batch * 1000 + i),
              at: Math.floor(Date.now() / 1000),
            })),
          )
          .execute();
      // Dropped: the subscriber's one place on this node is free again, and the socket is closed.
      await expect
        .poll(
          async () => {
            const s = await open(sub.token, {}, strict);
            s.close();
            return s.status;
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(200);
      socket.resume();
      await closed;
    } finally {
      await strict.app.close();
    }
  });

  it("a change committed by another connection, as the operator's CLI makes one, reaches an idle node's stream", async () => {
    const s = await open();
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'ready');
    // Several polls find nothing committed first: the node must still hear the next commit.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const other = await openDb(await locationOf(db));
    try {
      const from = s.events.length;
      expect(
        await runCatalogCommand(
          other,
          'availability',
          options([String(titles[7]), '--from', 'now', '--until', 'never']),
        ),
      ).toBe(0);
      const catalog = await s.waitFor((e) => e.event === 'catalog', 10_000, from);
      expect(dataOf(catalog).generation).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it('a fresh stream on a node that held none meanwhile starts at the end: earlier changes are not sent to it', async () => {
    const quiet = await startNode(db, { perUser: 1 });
    try {
      const first = await open(sub.token, {}, quiet);
      await first.waitFor((e) => e.event === 'ready');
      first.close();
      // Changes while the node holds no stream: more than the feed reads at once.
      const rows = Array.from({ length: 1_500 }, (_, i) => ({
        user_id: null,
        kind: 'catalog',
        subject: 'generation',
        value: String(2_000_000 + i),
        at: Math.floor(Date.now() / 1000),
      }));
      for (let i = 0; i < rows.length; i += 500)
        await db.kysely
          .insertInto('changes')
          .values(rows.slice(i, i + 500))
          .execute();
      const newest = Number(
        (await db.kysely
          .selectFrom('changes')
          .select((eb) => eb.fn.max('seq').as('n'))
          .executeTakeFirst())!.n,
      );
      // The one place frees once the node hears the first stream close.
      await expect
        .poll(async () => (await open(sub.token, {}, quiet)).status, { timeout: 10_000, interval: 200 })
        .toBe(200);
      const fresh = streams.at(-1)!;
      const ready = await fresh.waitFor((e) => e.event === 'ready');
      expect(Number(ready.id)).toBeGreaterThanOrEqual(newest);
      const rated = await write('/ratings/title/actual', { title_ref: ref(titles[2]!), rating: '3' });
      expect(rated.status, rated.body).toBe(201);
      const marker = await fresh.waitFor((e) => e.event === 'rating');
      const before = fresh.events.slice(0, fresh.events.indexOf(marker));
      expect(before.filter((e) => e.event === 'catalog' && Number(dataOf(e).generation) >= 2_000_000)).toEqual([]);
    } finally {
      await quiet.app.close();
    }
  });

  it('every stream hears a heartbeat each period, the streams spread over it rather than all in one turn', async () => {
    const periodMs = 3_000;
    const beating = await startNode(db, { perUser: 15, heartbeatMs: periodMs });
    const listeners: HeartbeatListener[] = [];
    try {
      for (let i = 0; i < 15; i++) listeners.push(await listenForHeartbeats(beating.url, sub));
      // Two periods after the last opened, each has heard two (half a period's grace for a busy machine).
      await expect
        .poll(() => Math.min(...listeners.map((l) => l.beats.length)), { timeout: 2.5 * periodMs, interval: 100 })
        .toBeGreaterThanOrEqual(2);
      const firsts = listeners.map((l) => l.beats[0]!);
      expect(Math.max(...firsts) - Math.min(...firsts)).toBeGreaterThanOrEqual(periodMs / 2);
    } finally {
      for (const l of listeners) l.close();
      await beating.app.close();
    }
  });

  // Two nodes share a database only on PostgreSQL; SQLite is one process's file.
  if (kind === 'postgres')
    it('a write on node 1 reaches a stream held by node 2 within a second', async () => {
      const db2 = await openDb({ databaseUrl: (await databaseUrlOf(db))! });
      const node2 = await startNode(db2);
      try {
        const s = await open(sub.token, {}, node2);
        expect(s.status).toBe(200);
        await s.waitFor((e) => e.event === 'ready');
        const moved = await write('/queues/instant', { title_ref: ref(titles[6]!), position: '1' });
        expect(moved.status, moved.body).toBe(201);
        await s.waitFor((e) => e.event === 'queue' && dataOf(e).etag === statusEtag(moved.body), 1_000);
        s.close();
      } finally {
        await node2.app.close();
        await db2.close();
      }
    });
});

/** Where a test database lives, for a second connection to it (another process would open the same). */
async function locationOf(db: Db): Promise<{ sqlitePath: string } | { databaseUrl: string }> {
  if (db.dialect === 'postgres') return { databaseUrl: (await databaseUrlOf(db))! };
  const { sql } = await import('kysely');
  const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db.kysely);
  return { sqlitePath: rows.find((r) => r.name === 'main')!.file };
}

interface HeartbeatListener {
  /** When each heartbeat comment arrived (ms since the epoch). */
  beats: number[];
  close(): void;
}

/** A stream read over a raw socket, so its comments (which an event parser skips) are seen. */
async function listenForHeartbeats(base: string, sub: SignedInSubscriber): Promise<HeartbeatListener> {
  const url = new URL(`${base}/users/${sub.userId}/changes`);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  const beats: number[] = [];
  let text = '';
  socket.on('data', (chunk) => {
    text += String(chunk);
    // A comment line, not the `Connection: keep-alive` header.
    for (let at = text.indexOf('\n: keep-alive'); at >= 0; at = text.indexOf('\n: keep-alive')) {
      beats.push(Date.now());
      text = text.slice(at + 2);
    }
  });
  const answered = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Authorization: ${authHeader(sub.consumer, 'GET', url.toString(), {}, sub.token)}\r\n\r\n`,
  );
  expect(await answered).toMatch(/^HTTP\/1\.1 200/);
  return { beats, close: () => socket.destroy() };
}

/** The PostgreSQL URL a test database was opened with (its pool's connection settings). */
async function databaseUrlOf(db: Db): Promise<string | undefined> {
  const { sql } = await import('kysely');
  const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(db.kysely);
  const { inject } = await import('vitest');
  return `${inject('postgresUrl')}/${rows[0]!.name}`;
}
