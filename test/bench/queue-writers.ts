import http from 'node:http';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { availableTitleIds } from '../helpers/catalog-picks.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import type { LiveService } from './context.ts';
import { percentile } from './load.ts';

export interface Writer {
  userId: string;
  token: Credentials;
  etag: string;
}

/** `count` subscribers, each with an instant queue of `size` entries written straight into the store. */
export async function queuesOf(live: LiveService, count: number, size: number): Promise<Writer[]> {
  const { db, consumer } = live.bench;
  const titles = await availableTitleIds(db, 'movie', 'instant', size);
  const now = Math.floor(Date.now() / 1000);
  const writers: Writer[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(db, {
      login: `bench${i}-${now}`,
      password: 'bench-password',
      firstName: 'Bench',
      lastName: String(i),
      acceptedTos: true,
    });
    const token = await issueAccessToken(db, consumer.key, user.id);
    await db.kysely.insertInto('queues').values({ user_id: user.id, kind: 'instant', version: 1 }).execute();
    for (let p = 0; p < titles.length; p += 200) {
      await db.kysely
        .insertInto('queue_items')
        .values(
          titles.slice(p, p + 200).map((title_id, j) => ({
            user_id: user.id,
            kind: 'instant',
            title_id,
            position: p + j + 1,
            format: 'instant',
            added: now,
            updated: now,
          })),
        )
        .execute();
    }
    writers.push({ userId: user.id, token: { key: token.token, secret: token.secret }, etag: '' });
  }
  return writers;
}

/** Where the writers send their moves: the service's port and the consumer they sign with. */
export interface WriteTarget {
  port: number;
  consumer: Credentials;
}

export interface WritersResult {
  movesPerSecond: number;
  p99: number;
  p50: number;
  statuses: Record<string, number>;
  /** The writers' process CPU over the measured window, in cores. */
  writerCpu: number;
}

/**
 * Each writer moves random entries of its own queue to random positions with If-Match, back to back.
 * Run by queue-writers-child.ts, in a process of its own (like the load client).
 */
export async function runWriters(
  live: WriteTarget,
  writers: Writer[],
  titleIds: number[],
  warmupMs: number,
  durationMs: number,
): Promise<WritersResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let measuring = false;
  let stopped = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: writers.length });
  const one = async (w: Writer) => {
    const path = `/users/${w.userId}/queues/instant`;
    if (!w.etag) w.etag = (await send(live, agent, 'GET', path, {}, w)).etag;
    const form = {
      title_ref: `http://127.0.0.1:8710/catalog/titles/movies/${titleIds[Math.floor(Math.random() * titleIds.length)]}`,
      position: String(1 + Math.floor(Math.random() * titleIds.length)),
    };
    const started = performance.now();
    const res = await send(live, agent, 'POST', path, form, w);
    if (measuring) {
      latencies.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    w.etag = res.status < 300 ? res.etag : '';
  };
  const loops = writers.map(async (w) => {
    while (!stopped) await one(w);
  });
  await new Promise((r) => setTimeout(r, warmupMs));
  measuring = true;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await new Promise((r) => setTimeout(r, durationMs));
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  stopped = true;
  await Promise.all(loops);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ok = Object.entries(statuses)
    .filter(([s]) => Number(s) < 300)
    .reduce((n, [, c]) => n + c, 0);
  return {
    movesPerSecond: ok / seconds,
    p99: percentile(latencies, 0.99),
    p50: percentile(latencies, 0.5),
    statuses,
    writerCpu: (used.user + used.system) / 1e6 / seconds,
  };
}

function send(
  live: WriteTarget,
  agent: http.Agent,
  method: string,
  path: string,
  form: Record<string, string>,
  w: Writer,
): Promise<{ status: number; etag: string }> {
  const body = new URLSearchParams(form).toString();
  const headers: Record<string, string | number> = {
    authorization: authHeader(live.consumer, method, `http://127.0.0.1:${live.port}${path}`, form, w.token),
  };
  if (method === 'POST') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = Buffer.byteLength(body);
    if (w.etag) headers['if-match'] = w.etag;
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: live.port, path, method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? '') }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}
