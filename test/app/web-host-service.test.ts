import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Result } from '../../shared/models.ts';
import { ROOT, TSX, childEnv } from '../helpers/service-process.ts';
import { startLiveCore, type LiveCoreEnv } from './helpers/live-core.ts';

/**
 * The web host pointed by MARQUEE_SERVICE_URL / _CONSUMER_KEY / _CONSUMER_SECRET at a service the
 * test controls (here the live service of a LiveCoreEnv, which can stop and start listening): no
 * embedded service starts, and the app follows the service down and back up.
 */
let env: LiveCoreEnv;
let dir: string;
let proc: ChildProcess;
let stdout = '';
let hostUrl: string;
let token: string;

beforeAll(async () => {
  env = await startLiveCore({ signedIn: false });
  dir = mkdtempSync(join(tmpdir(), 'marquee-web-service-'));
  proc = spawn(process.execPath, ['--import', TSX, 'electron/web-host.ts'], {
    cwd: ROOT,
    env: childEnv({
      MARQUEE_USER_DATA_DIR: join(dir, 'user-data'),
      MARQUEE_NO_BROWSER: '1',
      MARQUEE_SERVICE_URL: env.svc.url,
      MARQUEE_CONSUMER_KEY: env.svc.consumer.key,
      MARQUEE_CONSUMER_SECRET: env.svc.consumer.secret,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const started = Date.now();
  while (!/^Marquee is running at /m.test(stdout)) {
    if (proc.exitCode !== null) throw new Error(`the web host exited early:\n${stdout}\n${stderr}`);
    if (Date.now() - started > 60_000) throw new Error(`not running after 60 s:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const launch = new URL(/^Marquee is running at (\S+)$/m.exec(stdout)![1]!);
  hostUrl = launch.origin;
  token = /^#token=([\w-]+)$/.exec(launch.hash)![1]!;
}, 90_000);

afterAll(async () => {
  if (proc?.exitCode === null) {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const call = async (operation: string, input: unknown): Promise<Result<unknown>> =>
  (
    await fetch(`${hostUrl}/api/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
    })
  ).json() as Promise<Result<unknown>>;

test('uses the given service and starts no embedded one', async () => {
  expect(stdout).toContain(`Using the service at ${env.svc.url} (MARQUEE_SERVICE_URL)`);
  expect(stdout).not.toMatch(/Embedded service listening/);
  const profiles = (await call('profiles.list', {})) as Result<{
    profiles: Array<{ id: string; baseUrl: string }>;
    activeId: string;
  }>;
  expect(profiles).toMatchObject({
    ok: true,
    value: { activeId: 'embedded', profiles: [{ id: 'embedded', baseUrl: env.svc.url }] },
  });
});

test('follows the service down (offline, in words) and back up', async () => {
  const search = () => call('catalog.search', { term: 'The Matrix', max: 1 });
  expect(await search()).toMatchObject({ ok: true, value: { items: [{ title: 'The Matrix' }] } });
  await env.stopService();
  try {
    expect(await search()).toMatchObject({
      ok: false,
      error: { kind: 'offline', message: expect.stringContaining('Cannot reach the service') },
    });
  } finally {
    await env.startService();
  }
  expect(await call('catalog.search', { term: 'Heat', max: 1 })).toMatchObject({ ok: true });
});
