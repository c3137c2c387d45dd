import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { attachService, parseReadiness, type ServiceProcess } from '../../electron/embedded-service.ts';
import { ensureAppBundles } from '../helpers/app-bundles.ts';
import { ROOT, childEnv } from '../helpers/service-process.ts';

/**
 * `npm start` on a machine without the Electron binary (like this one): one line says so, then the
 * web host and the embedded service start; SIGTERM stops both.
 */

let dir: string;
let proc: ChildProcess;
let stdout = '';
let stderr = '';
let exit: Promise<number | null>;
let hostUrl: string;
let token: string;
let serviceUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-start-'));
  const noElectron = join(dir, 'no-electron');
  await ensureAppBundles(); // as start.mjs would build them, once for the run (not racing another file's build)
  proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    // ELECTRON_OVERRIDE_DIST_PATH points node_modules/electron's lookup at an empty folder, so the
    // test means "no binary" even where one is installed.
    env: childEnv({
      MARQUEE_USER_DATA_DIR: join(dir, 'user-data'),
      MARQUEE_NO_BROWSER: '1',
      ELECTRON_OVERRIDE_DIST_PATH: noElectron,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exit = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const started = Date.now();
  while (!/^Marquee is running at /m.test(stdout)) {
    if (proc.exitCode !== null) throw new Error(`start.mjs exited early:\n${stdout}\n${stderr}`);
    if (Date.now() - started > 100_000) throw new Error(`not running after 100 s:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const launch = new URL(/^Marquee is running at (\S+)$/m.exec(stdout)![1]!);
  hostUrl = launch.origin;
  token = /^#token=([\w-]+)$/.exec(launch.hash)![1]!;
  serviceUrl = /^Embedded service listening on (http:\/\/\S+)/m.exec(stdout)![1]!;
}, 120_000);

afterAll(() => {
  if (proc?.exitCode === null) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('says in one line that Electron is missing, then starts the web host', () => {
  const lines = stdout.split('\n').filter((l) => /electron/i.test(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Electron is not available \(.*\); starting the web host instead\.$/);
  expect(hostUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

test('the embedded service runs with its data under the user-data folder', async () => {
  expect(stdout).toContain(`(data in ${join(dir, 'user-data')})`);
  expect(stdout).toMatch(/^Demo sign-in: login \S+, password \S+$/m);
  const res = await fetch(`${serviceUrl}/catalog/titles`);
  expect(res.status).toBe(401); // it answers: unsigned catalog requests need a consumer
});

test('the API answers with the printed token and refuses without it', async () => {
  const call = (headers: Record<string, string>) =>
    fetch(`${hostUrl}/api/auth.status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });
  const res = await call({ authorization: `Bearer ${token}` });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true, value: { signedIn: false } });
  expect((await call({})).status).toBe(401);
});

test('serves the renderer it built', async () => {
  const res = await fetch(`${hostUrl}/`);
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<div id="root"></div>');
});

test('SIGTERM stops the web host and the embedded service', async () => {
  proc.kill('SIGTERM');
  expect(await exit).toBe(0);
  await expect(fetch(`${hostUrl}/`)).rejects.toThrow();
  await expect(fetch(`${serviceUrl}/`)).rejects.toThrow();
}, 30_000);

describe("readiness lines (shared by the child process and Electron's utility process)", () => {
  const lines = [
    'Marquee service listening on http://127.0.0.1:4321',
    'demo sign-in: login demo, password pw1',
    'demo consumer key: k1',
    'demo consumer secret: s1',
    '',
  ].join('\n');

  test('are read once all three have appeared', () => {
    expect(parseReadiness(lines.split('\n').slice(0, 3).join('\n'))).toBeNull();
    expect(parseReadiness(lines)).toEqual({
      url: 'http://127.0.0.1:4321',
      consumer: { key: 'k1', secret: 's1' },
      demoSignIn: { login: 'demo', password: 'pw1' },
    });
  });

  test('a printed base URL is the one ids and links use', () => {
    expect(parseReadiness(`${lines}base URL: https://marquee.example\n`)?.url).toBe('https://marquee.example');
  });

  function fakeProcess() {
    const events = new EventEmitter();
    const signals: Array<string | undefined> = [];
    const proc: ServiceProcess = {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      kill: (signal) => (signals.push(signal), setImmediate(() => events.emit('exit', null)), true),
      once: (event, listener) => events.once(event, listener),
    };
    return {
      proc,
      signals,
      write: (text: string) => (proc.stdout as PassThrough).write(text),
      exit: () => events.emit('exit', 1),
    };
  }

  test('attachService resolves from lines arriving in pieces, and stop sends SIGTERM', async () => {
    const fake = fakeProcess();
    const ready = attachService(fake.proc);
    for (const piece of lines.match(/[\s\S]{1,7}/g)!) fake.write(piece);
    const service = await ready;
    expect(service.url).toBe('http://127.0.0.1:4321');
    await service.stop();
    expect(fake.signals).toEqual(['SIGTERM']);
  });

  test('attachService rejects, with the output, when the process exits before it is ready', async () => {
    const fake = fakeProcess();
    const ready = attachService(fake.proc);
    (fake.proc.stderr as PassThrough).write('database is locked\n');
    await new Promise((r) => setImmediate(r));
    fake.exit();
    await expect(ready).rejects.toThrow(/exited before it was ready[\s\S]*database is locked/);
  });
});
