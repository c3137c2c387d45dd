import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import type { KyselyPlugin } from 'kysely';
import { openGuard } from '../../service/store/guard/index.ts';
import { claimBatch } from '../../service/store/guard/pg-claims.ts';
import { purgeDays } from '../../service/store/guard/purge.ts';
import { kyselyRunner } from '../../service/store/pg-prepared.ts';
import { dayWindow, quotaCount, secondWindow } from '../../service/store/quota.ts';
import { signer, type Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/** 2031-03-10T18:00:00Z: six hours before a UTC midnight. Fixed, so windows are deterministic. */
const T0 = Date.UTC(2031, 2, 10, 18, 0, 0) / 1000;
const NEXT_MIDNIGHT = Date.UTC(2031, 2, 11) / 1000;

describe.each(DATABASES)('per-consumer quotas on %s', (kind) => {
  let svc: TestService;
  let moviePath: string;

  beforeAll(async () => {
    svc = await startTestService(kind);
    const movie = await svc.db.kysely
      .selectFrom('titles')
      .select('id')
      .where('type', '=', 'movie')
      .where('id', 'in', svc.db.kysely.selectFrom('credits').select('title_id').where('role', '=', 'director'))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    moviePath = `/catalog/titles/movies/${movie.id}`;
  });
  afterAll(() => svc.close());
  // A test that fails half-way must not leave the clock moved for the next one.
  afterEach(() => {
    svc.clock.now = undefined;
  });

  /**
   * A request signed at the service's clock `at` (not the wall clock, which oauth-1.0a would use),
   * so a test can move time freely and stay within the ±300 s timestamp window.
   */
  function callAt(
    at: number,
    consumer: Credentials,
    path: string,
    query: Record<string, string> = {},
    app: FastifyInstance = svc.app,
  ) {
    svc.clock.now = at;
    const qs = new URLSearchParams(query).toString().replace(/\+/g, '%20');
    const url = path + (qs ? `?${qs}` : '');
    const oauth = signer(consumer);
    oauth.getTimeStamp = () => at;
    const authorization = oauth.toHeader(
      oauth.authorize({ url: `http://${new URL(svc.baseUrl).host}${url}`, method: 'GET', data: {} }),
    ).Authorization;
    return call({ ...svc, app }, url, { auth: 'none', headers: { authorization } });
  }

  function expectRefused(
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    message: string,
    retryAfter: number,
  ) {
    expect(res.statusCode).toBe(403);
    const status = parseXml(res.body).status;
    expect(status.status_code).toBe('403');
    expect(status.message).toBe(message);
    expect(res.headers['retry-after']).toBe(String(retryAfter));
  }

  it('refuses the request past the per-second budget with Retry-After, and recovers the next second', async () => {
    const c = await createConsumer(svc.db, { name: 'Per second', perSecond: 3 });
    for (let i = 0; i < 3; i++) expect((await callAt(T0, c, moviePath)).statusCode).toBe(200);
    expectRefused(await callAt(T0, c, moviePath), 'Over queries per second limit', 1);
    expectRefused(await callAt(T0, c, moviePath), 'Over queries per second limit', 1);
    for (let i = 0; i < 3; i++) expect((await callAt(T0 + 1, c, moviePath)).statusCode).toBe(200);
    expectRefused(await callAt(T0 + 1, c, moviePath), 'Over queries per second limit', 1);
    // Refusals for the per-second limit cost nothing of the day's budget.
    expect(await quotaCount(svc.db, c.key, dayWindow(T0))).toBe(6);
    svc.clock.now = undefined;
  });

  it('refuses the request past the per-day budget until the next UTC midnight', async () => {
    const c = await createConsumer(svc.db, { name: 'Per day', perSecond: 100, perDay: 5 });
    for (let i = 0; i < 5; i++) expect((await callAt(T0 + i, c, moviePath)).statusCode).toBe(200);
    expectRefused(await callAt(T0 + 10, c, moviePath), 'Over queries per day limit', NEXT_MIDNIGHT - (T0 + 10));
    expectRefused(await callAt(NEXT_MIDNIGHT - 1, c, moviePath), 'Over queries per day limit', 1);
    expect((await callAt(NEXT_MIDNIGHT, c, moviePath)).statusCode).toBe(200);
    expect((await callAt(NEXT_MIDNIGHT + 60, c, moviePath)).statusCode).toBe(200);
    svc.clock.now = undefined;
  });

  it('counts a request once however many expansions it carries', async () => {
    const c = await createConsumer(svc.db, { name: 'Expander' });
    const at = T0 + 100;
    const res = await callAt(at, c, moviePath, { expand: 'cast,directors,similars' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<similars>');
    expect(await quotaCount(svc.db, c.key, secondWindow(at))).toBe(1);
    expect(await quotaCount(svc.db, c.key, dayWindow(at))).toBe(1);
    svc.clock.now = undefined;
  });

  // Two separate processes sharing one database: two-nodes.test.ts (PostgreSQL) and the guard's tests.
  it('two apps on one database handle charge one budget', async () => {
    const c = await createConsumer(svc.db, { name: 'Two nodes', perSecond: 3 });
    const other = buildServer({
      db: svc.db,
      baseUrl: svc.baseUrl,
      now: () => svc.clock.now ?? Math.floor(Date.now() / 1000),
    });
    await other.ready();
    try {
      const at = T0 + 200;
      expect((await callAt(at, c, moviePath)).statusCode).toBe(200);
      expect((await callAt(at, c, moviePath, {}, other)).statusCode).toBe(200);
      expect((await callAt(at, c, moviePath)).statusCode).toBe(200);
      expectRefused(await callAt(at, c, moviePath, {}, other), 'Over queries per second limit', 1);
      expectRefused(await callAt(at, c, moviePath), 'Over queries per second limit', 1);
      expect(await quotaCount(svc.db, c.key, dayWindow(at))).toBe(3);
    } finally {
      await other.close();
      svc.clock.now = undefined;
    }
  });

  it('does not charge requests that fail authentication, nor public ones', async () => {
    const c: Consumer = await createConsumer(svc.db, { name: 'Unlucky', perSecond: 1, perDay: 1 });
    const at = T0 + 300;
    const forged = await callAt(at, { key: c.key, secret: 'not-the-secret' }, moviePath);
    expect(forged.statusCode).toBe(401);
    svc.clock.now = at;
    const page = await call(svc, moviePath.replace('/catalog/titles/movies/', '/web/titles/'), {
      auth: 'none',
      query: { oauth_consumer_key: c.key },
    });
    expect(page.statusCode).toBe(200);
    expect(await quotaCount(svc.db, c.key, secondWindow(at))).toBe(0);
    expect(await quotaCount(svc.db, c.key, dayWindow(at))).toBe(0);
    // Its one request of the day is still there.
    expect((await callAt(at, c, moviePath)).statusCode).toBe(200);
    expectRefused(await callAt(at + 1, c, moviePath), 'Over queries per day limit', NEXT_MIDNIGHT - (at + 1));
    svc.clock.now = undefined;
  });

  it('claims the nonce and charges both windows in one step: no statement on SQLite after the first of a second, one on PostgreSQL', async () => {
    const c = await createConsumer(svc.db, { name: 'One statement', perSecond: 2, perDay: 1000 });
    const at = T0 + 400;
    const statements: string[] = [];
    // Counted as results come back: the PostgreSQL guard runs its SQL text, which no query node shows.
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        statements.push(args.queryId.queryId);
        return Promise.resolve(args.result);
      },
    };
    // A second guard on the file the service holds (SQLite): as if the service had closed cleanly, not crashed.
    if (kind === 'sqlite')
      await svc.db.kysely.updateTable('meta').set({ value: '0' }).where('key', '=', 'guard_running').execute();
    // The guard on a counting connection: what one request costs the database.
    const guard = await openGuard(svc.db.kysely.withPlugin(counting), kind);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        statements.length = 0;
        const admitted = await guard.admit({ consumerKey: c.key, token: '', timestamp: at, nonce: `n${i}` }, 2, at);
        outcomes.push(admitted.kind === 'fresh' && admitted.charge.day !== undefined ? 'ok' : 'refused');
        // SQLite reads the day's saved count once (per consumer and day) and notes the second it
        // accepts in once (what a restart after a crash refuses), then nothing.
        if (kind === 'postgres' || i > 0)
          expect(statements, `request ${i + 1}`).toHaveLength(kind === 'sqlite' ? 0 : 1);
        else expect(statements.length, 'request 1').toBeLessThanOrEqual(2);
      }
      expect(outcomes).toEqual(['ok', 'ok', 'refused', 'refused']);
      expect((await guard.admit({ consumerKey: c.key, token: '', timestamp: at, nonce: 'n0' }, 2, at)).kind).toBe(
        'replay',
      );
      expect(await guard.count(c.key, secondWindow(at))).toBe(4);
      expect(await guard.count(c.key, dayWindow(at))).toBe(2);

      // Requests that arrive together: one statement on PostgreSQL for all of them (group commit), each its own answer.
      statements.length = 0;
      const together = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          guard.admit(
            { consumerKey: c.key, token: '', timestamp: at + 1, nonce: i < 30 ? `m${i}` : `m${i - 30}` },
            2,
            at + 1,
          ),
        ),
      );
      // (SQLite: at most the one note of the new second, shared by all forty.)
      if (kind === 'sqlite') expect(statements.length).toBeLessThanOrEqual(1);
      else expect(statements).toHaveLength(1);
      expect(together.filter((a) => a.kind === 'replay')).toHaveLength(10);
      const fresh = together.flatMap((a) => (a.kind === 'fresh' ? [a.charge] : []));
      expect(fresh.map((f) => f.second).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(
        fresh
          .filter((f) => f.day !== undefined)
          .map((f) => f.day)
          .sort(),
      ).toEqual([3, 4]);
    } finally {
      await guard.close();
    }
  });

  it('counts exactly the requests the second lets through against the day, under concurrent charges', async () => {
    const c = await createConsumer(svc.db, { name: 'Concurrent', perSecond: 5 });
    const at = T0 + 500;
    const n = 200;
    const charges = await Promise.all(Array.from({ length: n }, () => svc.db.guard.charge(c.key, 5, at)));
    expect(charges.map((x) => x.second).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(
      charges
        .filter((x) => x.day !== undefined)
        .map((x) => x.day)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(charges.every((x) => (x.day !== undefined) === x.second <= 5)).toBe(true);
    expect(await quotaCount(svc.db, c.key, dayWindow(at))).toBe(5);
  });

  it('purges day counts from before yesterday in one statement, and keeps no per-second rows', async () => {
    const now = T0 + 5 * 86_400 + 30;
    const days = [dayWindow(now - 3 * 86_400), dayWindow(now - 2 * 86_400), dayWindow(now - 86_400), dayWindow(now)];
    await svc.db.kysely
      .insertInto('quota_counters')
      .values(days.map((window) => ({ consumer_key: 'prune-test', window, count: 1 })))
      .execute();
    await purgeDays(svc.db.kysely, now);
    const left = await svc.db.kysely
      .selectFrom('quota_counters')
      .select('window')
      .where('consumer_key', '=', 'prune-test')
      .orderBy('window')
      .execute();
    expect(left.map((r) => r.window)).toEqual([dayWindow(now - 86_400), dayWindow(now)]);
    const secondRows = await svc.db.kysely
      .selectFrom('quota_counters')
      .select('window')
      .where('window', 'like', 's:%')
      .execute();
    expect(secondRows).toEqual([]);
  });
});

describe('quota counts on PostgreSQL, where nodes charge one row at once', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('postgres');
  });
  afterAll(() => svc.close());

  it('does not count for the day a request refused while another one held the second window', async () => {
    const c = await createConsumer(svc.db, { name: 'Interleaved', perSecond: 5 });
    const at = T0 + 600;
    const charge = (run = kyselyRunner(svc.db.kysely)) =>
      claimBatch(run, [{ slot: null, digest: null, consumerKey: c.key, perSecond: 5 }], at, dayWindow(at)).then(
        (a) => a[0],
      );
    for (let i = 0; i < 4; i++) await charge();
    // A takes the fifth slot in a transaction left open while B charges: B started before A
    // committed, so its snapshot still says 4; only A's row lock tells it the truth.
    let second: ReturnType<typeof charge> | undefined;
    const first = await svc.db.kysely.transaction().execute(async (trx) => {
      const mine = await charge(kyselyRunner(trx));
      second = charge();
      await new Promise((r) => setTimeout(r, 150));
      return mine;
    });
    expect(first).toEqual({ second: 5, day: 5 });
    expect(await second).toEqual({ second: 6, day: undefined });
    expect(await quotaCount(svc.db, c.key, dayWindow(at))).toBe(5);
  });
});
