import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appliedChain,
  closeSharedDatabase,
  openSharedDatabase,
  QUEUE_ORDER_QUERY,
  queueOrder,
  type SharedDatabase,
  type VersionedWrite,
} from '../helpers/queue-load.ts';
import { startService, type RunningService } from '../helpers/service-process.ts';
import { seeded, signedFetch } from '../helpers/signed-fetch.ts';
import { parseXml } from '../helpers/xml.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';

const CLIENTS = 10;
const MOVES_PER_CLIENT = 100;
const QUEUE_SIZE = 20;

/** A move of one title to a position, sent with If-Match. */
type Move = VersionedWrite & { titleId: number; position: number };

/**
 * The contract's concurrency promise, end to end: ten clients each make a hundred moves with
 * If-Match on one queue through two service processes sharing one PostgreSQL database.
 */
describe('queue moves from 10 clients through two service processes on one PostgreSQL database', () => {
  let shared: SharedDatabase;
  const nodes: RunningService[] = [];

  beforeAll(async () => {
    shared = await openSharedDatabase('Load', {
      login: 'busy@example.com',
      password: 'pw-busy-1',
      firstName: 'Busy',
      lastName: 'Bee',
    });
    // Started one after the other: each first start registers demo data.
    for (let i = 0; i < 2; i++) nodes.push(await startService(['--port', '0', '--database-url', shared.databaseUrl]));
  }, 180_000);

  afterAll(() => closeSharedDatabase(nodes, shared));

  const request = (
    node: RunningService,
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) => signedFetch(node.localUrl, shared.consumer, shared.token, method, path, form, headers);
  const readQueue = async (node: RunningService) =>
    queueOrder(await request(node, 'GET', `/users/${shared.userId}/queues/instant?${QUEUE_ORDER_QUERY}`));

  it('every success bumps the ETag by one, every stale write is 412, and the final order replays the successes', async () => {
    const movies = await instantMovieIds(shared.db, QUEUE_SIZE);
    const refs = movies.map((id) => `${nodes[0]!.baseUrl}/catalog/titles/movies/${id}`);
    const added = await request(nodes[0]!, 'POST', `/users/${shared.userId}/queues/instant`, {
      title_ref: refs.join(','),
    });
    expect(added.status, added.body).toBe(201);
    const initial = await readQueue(nodes[0]!);
    expect(initial.order).toHaveLength(QUEUE_SIZE);

    const moves: Move[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const next = seeded(client + 1); // deterministic, so a failure can be replayed
        for (let i = 0; i < MOVES_PER_CLIENT; i++) {
          const node = nodes[(client + i) % 2]!;
          const { etag, order } = await readQueue(node);
          const titleId = order[Math.floor(next() * order.length)]!;
          const position = 1 + Math.floor(next() * order.length);
          const res = await request(
            node,
            'POST',
            `/users/${shared.userId}/queues/instant`,
            { title_ref: `${node.baseUrl}/catalog/titles/movies/${titleId}`, position: String(position) },
            { 'if-match': `"${etag}"` },
          );
          const move: Move = { titleId, position, ifMatch: etag, status: res.status };
          if (res.status === 201) move.newEtag = Number(parseXml(res.body).status.etag);
          else expect(parseXml(res.body).status.message).toBe('Precondition failed. Resource has been modified.');
          moves.push(move);
        }
      }),
    );

    const stale = moves.filter((m) => m.status === 412);
    expect(moves.filter((m) => m.status === 201).length + stale.length).toBe(CLIENTS * MOVES_PER_CLIENT);
    expect(stale.length).toBeGreaterThan(0);
    // Each success (a 201, the only answer with a new version) moved the version from its If-Match to the next one.
    const successes = appliedChain(moves, initial.etag);
    expect(successes.length).toBeGreaterThan(0);
    // A 412 only ever met a version some success had already moved past.
    for (const m of stale) expect(successes.some((s) => s.ifMatch >= m.ifMatch)).toBe(true);

    const final = await readQueue(nodes[1]!);
    expect(final.etag).toBe(initial.etag + successes.length);
    const replayed = [...initial.order];
    for (const m of successes) {
      replayed.splice(replayed.indexOf(m.titleId), 1);
      replayed.splice(Math.min(m.position - 1, replayed.length), 0, m.titleId);
    }
    expect(final.order).toEqual(replayed);
  }, 300_000);
});
