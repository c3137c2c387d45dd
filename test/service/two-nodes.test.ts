import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { startService, type RunningService } from '../helpers/service-process.ts';
import {
  appliedChain,
  closeSharedDatabase,
  openSharedDatabase,
  QUEUE_ORDER_QUERY,
  queueOrder,
  type SharedDatabase,
  type VersionedWrite,
} from '../helpers/queue-load.ts';
import { seeded, signedFetch, type Answer } from '../helpers/signed-fetch.ts';
import { parseXml } from '../helpers/xml.ts';

const CLIENTS = 20;
const OPS_PER_CLIENT = 15;
const POOL = 40;
const DAY_BUDGET = 200;

type Op =
  | { kind: 'add'; title: number; position?: number }
  | { kind: 'move'; title: number; position: number }
  | { kind: 'delete'; title: number };

/** A queue write sent with If-Match. */
type Write = VersionedWrite & { op: Op };

/**
 * Issue 10, proof 4: two service processes started together on one fresh PostgreSQL database
 * (both must come up), twenty clients mixing queue adds, moves and deletes with If-Match and
 * ratings through both: no lost update, no duplicate, no 5xx; a day budget holds within 10%.
 */
describe('two service processes on one PostgreSQL database', () => {
  let shared: SharedDatabase;
  let nodes: RunningService[] = [];
  let titles: number[];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    shared = await openSharedDatabase('Mix', {
      login: 'shared@example.com',
      password: 'pw-shared-1',
      firstName: 'Sha',
      lastName: 'Red',
    });
    titles = await instantMovieIds(shared.db, POOL + CLIENTS);
    // Together, as an orchestrator starts them: both run the first-start checks at once.
    nodes = await Promise.all([0, 1].map(() => startService(['--port', '0', '--database-url', shared.databaseUrl])));
  }, 180_000);

  afterAll(() => closeSharedDatabase(nodes, shared));

  const send = async (
    node: RunningService,
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers?: Record<string, string>,
    as: Credentials = shared.consumer,
  ): Promise<Answer> => {
    const res = await signedFetch(node.localUrl, as, shared.token, method, path, form, headers);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    return res;
  };
  const queuePath = `/users/:uid/queues/instant`;
  const readQueue = async (node: RunningService) =>
    queueOrder(await send(node, 'GET', `${queuePath.replace(':uid', shared.userId)}?${QUEUE_ORDER_QUERY}`));

  const chooseOp = (order: number[], next: () => number): Op => {
    const absent = titles.slice(0, POOL).filter((t) => !order.includes(t));
    const roll = next();
    const position = 1 + Math.floor(next() * (order.length + 1));
    if (order.length < 3 || (roll < 0.45 && absent.length > 0))
      return { kind: 'add', title: absent[Math.floor(next() * absent.length)]!, ...(next() < 0.5 ? { position } : {}) };
    const title = order[Math.floor(next() * order.length)]!;
    return roll < 0.75 ? { kind: 'move', title, position } : { kind: 'delete', title };
  };

  const write = async (node: RunningService, op: Op, etag: number): Promise<Answer> => {
    const base = queuePath.replace(':uid', shared.userId);
    const ifMatch = { 'if-match': `"${etag}"` };
    const ref = `${node.baseUrl}/catalog/titles/movies/${op.title}`;
    if (op.kind === 'delete')
      return send(
        node,
        'POST',
        `${base}/available/${op.title}`,
        {},
        { ...ifMatch, 'x-http-method-override': 'DELETE' },
      );
    const form: Record<string, string> = { title_ref: ref };
    if (op.position !== undefined) form.position = String(op.position);
    return send(node, 'POST', base, form, ifMatch);
  };

  const replay = (initial: number[], writes: Write[]): number[] => {
    const order = [...initial];
    for (const { op } of writes) {
      if (op.kind !== 'add') order.splice(order.indexOf(op.title), 1);
      if (op.kind === 'delete') continue;
      const at = op.position === undefined ? order.length : Math.min(op.position - 1, order.length);
      order.splice(at, 0, op.title);
    }
    return order;
  };

  it('both nodes started together came up', () => {
    expect(nodes).toHaveLength(2);
    expect(nodes[0]!.demo.key).toBe(nodes[1]!.demo.key);
  });

  it(`${CLIENTS} clients mixing adds, moves, deletes and ratings lose no update and duplicate nothing`, async () => {
    const initial = await readQueue(nodes[0]!);
    const writes: Write[] = [];
    const lastRating = new Map<number, number>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const next = seeded(client + 7);
        const ratingTitle = titles[POOL + client]!;
        for (let i = 0; i < OPS_PER_CLIENT; i++) {
          const node = nodes[(client + i) % 2]!;
          if (next() < 0.2) {
            const rating = 1 + Math.floor(next() * 5);
            const path = `/users/${shared.userId}/ratings/title/actual/${ratingTitle}`;
            const first = !lastRating.has(ratingTitle);
            const res = await send(
              node,
              'POST',
              path,
              { rating: String(rating) },
              first ? {} : { 'x-http-method-override': 'PUT' },
            );
            expect(res.status, res.body).toBe(first ? 201 : 200);
            lastRating.set(ratingTitle, rating);
            continue;
          }
          const { etag, order } = await readQueue(node);
          const op = chooseOp(order, next);
          const res = await write(node, op, etag);
          const w: Write = { op, ifMatch: etag, status: res.status };
          if (res.status === 200 || res.status === 201) w.newEtag = Number(parseXml(res.body).status.etag);
          else expect(res.status, res.body).toBe(412);
          writes.push(w);
        }
      }),
    );
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    const successes = appliedChain(writes, initial.etag);
    expect(successes.length).toBeGreaterThan(0);
    const final = await readQueue(nodes[1]!);
    expect(final.order).toEqual(replay(initial.order, successes));
    expect(new Set(final.order).size).toBe(final.order.length);
    const stored = await shared.db.kysely
      .selectFrom('ratings')
      .select(['title_id', 'rating'])
      .where('user_id', '=', shared.userId)
      .execute();
    expect(new Map(stored.map((r) => [r.title_id, r.rating]))).toEqual(lastRating);
    console.log(
      `two nodes: ${writes.length} queue writes (${successes.length} applied, ${writes.length - successes.length} stale 412), ${lastRating.size} rated titles; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 240_000);

  it(`a day budget of ${DAY_BUDGET} is kept within 10% across both nodes`, async () => {
    const limited = await createConsumer(shared.db, { name: 'Budget', perSecond: 1_000_000, perDay: DAY_BUDGET });
    const tokenFor = await issueAccessToken(shared.db, limited.key, shared.userId);
    let ok = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        for (let i = 0; i < 30; i++) {
          const node = nodes[(c + i) % 2]!;
          const res = await signedFetch(
            node.localUrl,
            limited,
            { key: tokenFor.token, secret: tokenFor.secret },
            'GET',
            `/users/${shared.userId}`,
          );
          if (res.status === 200) ok++;
          else if (res.status === 403) refused++;
          else throw new Error(`${res.status}: ${res.body}`);
        }
      }),
    );
    expect(ok + refused).toBe(300);
    expect(Math.abs(ok - DAY_BUDGET)).toBeLessThanOrEqual(DAY_BUDGET / 10);
    console.log(`two nodes: day budget ${DAY_BUDGET}, ${ok} served, ${refused} refused`);
  }, 120_000);
});
