import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { freePort } from '../helpers/postgres-server.ts';
import { operator, running, startService, type RunningService } from '../helpers/service-process.ts';
import { copyDemoStore, openTestDb } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/** Every node is reached under this name (Host header), so one signed request is valid on any of them. */
const HOST = 'marquee.test';
const PATH = '/catalog/titles?term=star&max_results=1';

interface Signed {
  authorization: string;
  timestamp: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A signed GET, fixed once made: sending it again is a replay. */
function signed(consumer: Credentials, timestamp = nowSeconds()): Signed {
  return { authorization: authHeader(consumer, 'GET', `http://${HOST}${PATH}`, {}, undefined, timestamp), timestamp };
}

/** Sends the request to a node over loopback; the status and, for a refusal, its message. */
function send(node: RunningService, request: Signed): Promise<{ status: number; message?: string }> {
  const port = Number(new URL(node.localUrl).port);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port, path: PATH, headers: { host: HOST, authorization: request.authorization } },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () =>
            resolve(
              res.statusCode === 200
                ? { status: 200 }
                : { status: res.statusCode ?? 0, message: parseXml(body).status?.message },
            ),
          );
        },
      )
      .on('error', reject);
  });
}

const used = { status: 401, message: 'Nonce Already Used' };
const stale = { status: 401, message: 'Timestamp Is Invalid' };

/** Until the wall clock is in a later second than `second`. */
async function after(second: number): Promise<void> {
  while (nowSeconds() <= second) await new Promise((r) => setTimeout(r, 50));
}

/** Runs `test` on a copy of the demo store with the service arguments for it (a free port), then removes it. */
async function onDemoStore(test: (dir: string, args: string[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-replay-'));
  copyDemoStore(dir);
  try {
    await test(dir, ['--data-dir', dir, '--port', String(await freePort())]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 19: a replay is refused by real service processes — within a run, after a clean restart
 * (SIGTERM: the nonces were saved), after SIGKILL (they were not: what the lost nonces could hold
 * is refused as stale, including a second accepted ahead of the clock), and across two nodes on
 * one PostgreSQL database.
 */
describe('replays refused by service processes', () => {
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
  });

  it('on SQLite: within a run, after a clean restart, and after SIGKILL', async () => {
    await onDemoStore(async (dir, args) => {
      const first = await startService(args);
      const consumer = first.demo;
      const a = signed(consumer);
      expect(await send(first, a)).toEqual({ status: 200 });
      expect(await send(first, a)).toEqual(used);
      expect((await first.stop('SIGTERM')).code).toBe(0);

      const second = await startService(args);
      expect(await send(second, a)).toEqual(used);
      const b = signed(consumer);
      const ahead = signed(consumer, nowSeconds() + 120); // a client whose clock runs two minutes fast
      expect(await send(second, b)).toEqual({ status: 200 });
      expect(await send(second, ahead)).toEqual({ status: 200 });
      expect((await second.stop('SIGKILL')).signal).toBe('SIGKILL');

      const third = await startService(args);
      expect(await send(third, b)).toEqual(stale);
      expect(await send(third, a)).toEqual(stale);
      expect(await send(third, ahead)).toEqual(stale);
      // Later seconds were never accepted: fresh requests signed in them are.
      expect(await send(third, signed(consumer, ahead.timestamp + 1))).toEqual({ status: 200 });
      await after(nowSeconds());
      const fresh = signed(consumer);
      expect(await send(third, fresh)).toEqual({ status: 200 });
      expect(await send(third, fresh)).toEqual(used);
      await third.stop('SIGTERM');
    });
  }, 240_000);

  it('on SQLite after SIGKILL, also when an operator command ran on the store meanwhile', async () => {
    await onDemoStore(async (dir, args) => {
      const first = await startService(args);
      const consumer = first.demo;
      const before = signed(consumer);
      expect(await send(first, before)).toEqual({ status: 200 });
      // The command reads the store the running service holds (and works: it lists the demo consumer).
      expect(await operator(dir, ['consumers', 'list'])).toContain(consumer.key);
      await after(nowSeconds());
      const since = signed(consumer);
      expect(await send(first, since)).toEqual({ status: 200 });
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

      const second = await startService(args);
      expect(await send(second, before)).toEqual(stale);
      expect(await send(second, since)).toEqual(stale);
      await second.stop('SIGTERM');
    });
  }, 240_000);

  it('on two nodes sharing PostgreSQL: a request one node answered is a replay on the other, also after SIGKILL', async () => {
    const { db, drop, databaseUrl } = await openTestDb('postgres');
    await db.close();
    const argsOf = async () => ['--database-url', databaseUrl!, '--port', String(await freePort())];
    const argsA = await argsOf();
    try {
      const [nodeA, nodeB] = await Promise.all([startService(argsA), startService(await argsOf())]);
      const consumer = nodeA.demo;
      const requests = Array.from({ length: 20 }, () => signed(consumer));
      // Sent to both nodes at once: each request is answered 200 exactly once.
      const answers = await Promise.all(requests.flatMap((r) => [send(nodeA, r), send(nodeB, r)]));
      for (let i = 0; i < requests.length; i++) {
        expect([answers[2 * i], answers[2 * i + 1]]).toEqual(expect.arrayContaining([{ status: 200 }, used]));
      }
      expect((await nodeA.stop('SIGKILL')).signal).toBe('SIGKILL');
      const restarted = await startService(argsA);
      for (const r of requests.slice(0, 5)) expect(await send(restarted, r)).toEqual(used);
      await Promise.all([restarted.stop('SIGTERM'), nodeB.stop('SIGTERM')]);
    } finally {
      await drop();
    }
  }, 240_000);
});
