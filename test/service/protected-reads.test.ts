import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import type { Db } from '../../service/store/db.ts';
import type { StatementRunner } from '../../service/store/pg-prepared.ts';
import { catalogGeneration } from '../../service/store/catalog/generation.ts';
import { cachedConsumer } from '../../service/store/oauth/consumer-cache.ts';
import { changeQueue, readQueue } from '../../service/store/queue/queues.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, openTestDb, TEST_BASE, type TestService } from '../helpers/service.ts';
import { unlimitedSubscriber } from '../helpers/subscriber.ts';

/**
 * Issues 19 and 27: no round trip a request does not need. A repeat protected GET of a queue page
 * reads the access token, its subscriber and the queue's version in one statement (the page is
 * kept): one read, on SQLite and PostgreSQL (where each is a round trip; the nonce claim, batched,
 * is not counted here). What that read saw of the queue is what the answer shows.
 */
describe.each(DATABASES)('the reads of a protected GET on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let svc: TestService;
  let subscriber: { userId: string; token: Credentials };
  const reads: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    // The service on counting handles: every statement whose rows come back is one read.
    // Each read is named by its statement's kind and first table, so an unexpected one says what it was.
    const named = new Map<unknown, string>();
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        named.set(args.queryId, `kysely ${args.node.kind} ${firstTable(args.node)}`);
        return args.node;
      },
      transformResult: (args) => {
        reads.push(named.get(args.queryId) ?? 'kysely');
        named.delete(args.queryId);
        return Promise.resolve(args.result);
      },
    };
    const kysely = db.kysely.withPlugin(counting);
    const run: StatementRunner = (text, values) => {
      reads.push(text.trim().split('\n')[0]!);
      return db.prepared!.run(text, values);
    };
    const counted: Db = { ...db, kysely, ...(db.prepared ? { prepared: { kysely, run } } : {}) };
    // One clock reading for the whole test: a queue page is kept only when one reading of the clock
    // rendered it (queues.ts), so on a busy machine a first GET whose render crossed a second would
    // leave nothing kept and its repeat would read the whole queue, which is not what this test counts.
    const frozen = Math.floor(Date.now() / 1000);
    const app: FastifyInstance = buildServer({ db: counted, baseUrl: TEST_BASE, now: () => frozen });
    await app.ready();
    const { consumer, userId, token } = await unlimitedSubscriber(db, 'Reads', {
      login: `reads-${kind}@example.com`,
      password: 'pw-reads-1',
      firstName: 'R',
      lastName: 'Eads',
    });
    const titles = await instantMovieIds(db, 50);
    await changeQueue(db, userId, 'instant', undefined, () => ({
      entries: titles.map((title_id, i) => ({ title_id, position: i + 1, format: 'instant', added: 1, updated: 1 })),
      result: null,
    }));
    svc = { kind, db: counted, app, consumer, baseUrl: TEST_BASE, clock: { now: frozen }, close: () => app.close() };
    subscriber = { userId, token };
  });
  afterAll(async () => {
    await svc.close();
    await db.close();
    await drop();
  });

  it('reads the token, its subscriber and the version of the kept page in one statement', async () => {
    const { token, userId } = subscriber;
    const path = `/users/${userId}/queues/instant`;
    expect((await call(svc, path, { token, query: { max_results: '50' } })).statusCode).toBe(200);
    // The catalog generation is trusted for a second (GENERATION_REFRESH_MS) and the consumer for
    // five (CONSUMER_TTL_MS), then read again: read both now (uncounted) and hold them for the rest of
    // this test (a read "as of" the end of time is trusted until then), or a repeat GET delayed past
    // either on a busy machine adds a read that is not what this test counts.
    await catalogGeneration(db, Number.POSITIVE_INFINITY);
    await cachedConsumer(db, svc.consumer.key, Number.POSITIVE_INFINITY);
    reads.length = 0;
    const again = await call(svc, path, { token, query: { max_results: '50' } });
    expect(again.statusCode).toBe(200);
    expect(reads, JSON.stringify(reads)).toHaveLength(1);
  });

  it("answers a repeat GET with the first answer's bytes and ETag, and 304 to that ETag", async () => {
    const { token, userId } = subscriber;
    const path = `/users/${userId}/queues/instant`;
    const first = await call(svc, path, { token, query: { max_results: '50' } });
    const again = await call(svc, path, { token, query: { max_results: '50' } });
    expect(again.statusCode).toBe(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toBe(first.body);
    const unchanged = await call(svc, path, {
      token,
      query: { max_results: '50' },
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
  });

  it('shows a change made elsewhere between two GETs (as by another node), with a new ETag', async () => {
    const { token, userId } = subscriber;
    const path = `/users/${userId}/queues/instant`;
    const before = await call(svc, path, { token, query: { max_results: '50' } });
    const [first] = (await readQueue(db, userId, 'instant')).entries;
    await changeQueue(db, userId, 'instant', undefined, (entries) => ({
      entries: entries.filter((e) => e.title_id !== first!.title_id),
      result: null,
    }));
    const after = await call(svc, path, {
      token,
      query: { max_results: '50' },
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(before.body).toContain(`/catalog/titles/movies/${first!.title_id}`);
    expect(after.body).not.toContain(`/catalog/titles/movies/${first!.title_id}`);
  });
});

/** The first table a statement names (its FROM, INTO or UPDATE), for the reads' names. */
function firstTable(node: object): string {
  const text = JSON.stringify(node);
  return (
    /"kind":"TableNode","table":\{"kind":"SchemableIdentifierNode",(?:"schema":\{[^}]*\},)?"identifier":\{"kind":"IdentifierNode","name":"([^"]+)"/.exec(
      text,
    )?.[1] ?? '?'
  );
}
