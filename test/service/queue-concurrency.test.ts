import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consumer } from '../../service/model/consumer.ts';
import type { Db } from '../../service/store/db.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { running, startService, type RunningService } from '../helpers/service-process.ts';
import { openTestDb } from '../helpers/service.ts';
import { seeded } from '../helpers/signed-fetch.ts';
import { unlimitedSubscriber } from '../helpers/subscriber.ts';
import { parseXml } from '../helpers/xml.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';

const CLIENTS = 10;
const MOVES_PER_CLIENT = 100;
const QUEUE_SIZE = 20;

interface Move {
  titleId: number;
  position: number;
  ifMatch: number;
  status: number;
  newEtag?: number;
}

/**
 * The contract's concurrency promise, end to end: ten clients each make a hundred moves with
 * If-Match on one queue through two service processes sharing one PostgreSQL database.
 */
describe('queue moves from 10 clients through two service processes on one PostgreSQL database', () => {
  let db: Db;
  let drop: () => Promise<void>;
  const nodes: RunningService[] = [];
  let consumer: Consumer;
  let token: Credentials;
  let userId: string;

  beforeAll(async () => {
    const opened = await openTestDb('postgres');
    ({ db, drop } = opened);
    ({ consumer, userId, token } = await unlimitedSubscriber(db, 'Load', {
      login: 'busy@example.com',
      password: 'pw-busy-1',
      firstName: 'Busy',
      lastName: 'Bee',
    }));
    // Started one after the other: each first start registers demo data.
    for (let i = 0; i < 2; i++) nodes.push(await startService(['--port', '0', '--database-url', opened.databaseUrl!]));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop('SIGTERM')));
    for (const proc of running) proc.kill('SIGKILL');
    await db.close();
    await drop();
  });

  const request = async (
    node: RunningService,
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
    const url = `${node.localUrl}${path}`;
    const res = await fetch(url, {
      method,
      headers: {
        authorization: authHeader(consumer, method, url, form ?? {}, token),
        ...headers,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: res.status, body: await res.text() };
  };
  const readQueue = async (node: RunningService) => {
    const res = await request(node, 'GET', `/users/${userId}/queues/instant?max_results=500`);
    expect(res.status, res.body).toBe(200);
    const queue = parseXml(res.body).queue;
    if (!queue) throw new Error(res.body.slice(0, 300));
    const items = (queue.queue_item ?? []) as Array<{ id: string; position: string }>;
    expect(items.map((i) => Number(i.position))).toEqual(items.map((_, i) => i + 1)); // always 1..n
    return { etag: Number(queue.etag), order: items.map((i) => Number(i.id.split('/').pop())) };
  };

  it('every success bumps the ETag by one, every stale write is 412, and the final order replays the successes', async () => {
    const movies = await instantMovieIds(db, QUEUE_SIZE);
    const refs = movies.map((id) => `${nodes[0]!.baseUrl}/catalog/titles/movies/${id}`);
    const added = await request(nodes[0]!, 'POST', `/users/${userId}/queues/instant`, { title_ref: refs.join(',') });
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
            `/users/${userId}/queues/instant`,
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

    const successes = moves.filter((m) => m.status === 201).sort((a, b) => a.newEtag! - b.newEtag!);
    const stale = moves.filter((m) => m.status === 412);
    expect(successes.length + stale.length).toBe(CLIENTS * MOVES_PER_CLIENT);
    expect(successes.length).toBeGreaterThan(0);
    expect(stale.length).toBeGreaterThan(0);
    // Each success moved the version from its If-Match to the next one: no two share a version.
    for (const m of successes) expect(m.newEtag).toBe(m.ifMatch + 1);
    expect(successes.map((m) => m.newEtag)).toEqual(successes.map((_, i) => initial.etag + 1 + i));
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
