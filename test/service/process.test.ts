import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../service/config.ts';
import { signedUrl, type Credentials } from '../helpers/oauth-client.ts';
import { adminStatement, freePort } from '../helpers/postgres-server.ts';
import { parseXml } from '../helpers/xml.ts';
import {
  childEnv,
  ROOT,
  running,
  startService,
  LAUNCHER_ENTRY,
  type Exit,
  type RunningService,
} from '../helpers/service-process.ts';

/**
 * The service as an operator runs it: `npm run service` (scripts/service.mjs), a real process with its
 * own data directory or PostgreSQL database, reached over loopback HTTP. Tests in a suite share
 * the process and data they build on (each start costs a second or more), in order.
 */

/** An operator command: `npm run service -- <args>` (scripts/service.mjs) to completion. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [...LAUNCHER_ENTRY, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code, signal) => {
      running.delete(proc);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

/** GET with a Host header of our choosing (fetch may not set it), as a reverse proxy forwards. */
function getVia(localUrl: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const local = new URL(localUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: local.hostname, port: local.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, contentType: String(res.headers['content-type'] ?? '') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A catalog search signed with `consumer` over real HTTP; returns the parsed result list. */
async function signedSearch(
  svc: RunningService,
  consumer: Credentials,
  term: string,
  maxResults = 10,
): Promise<Answer> {
  const q = new URLSearchParams({ term, max_results: String(maxResults) }).toString().replace(/\+/g, '%20');
  return get(signedUrl(consumer, 'GET', `${svc.localUrl}/catalog/titles?${q}`));
}

function titlesOf(answer: Answer): Array<{ id: string; title: { regular: string }; box_art: Record<string, string> }> {
  expect(answer.status, answer.body).toBe(200);
  return parseXml(answer.body).catalog_titles.catalog_title ?? [];
}

function expectStatus(answer: Answer, code: number, message: string): void {
  expect(answer.status, answer.body).toBe(code);
  expect(parseXml(answer.body).status).toEqual({ status_code: String(code), message });
}

function sqliteTitleCount(dataDir: string): number {
  const db = new SQLite(join(dataDir, 'marquee.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM titles').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Kills whatever a failed test left running, so the run never hangs on an orphan. */
afterAll(() => {
  for (const proc of running) proc.kill('SIGKILL');
});

describe('service settings', () => {
  it('flags win over environment variables, which win over defaults', () => {
    const env = {
      MARQUEE_PORT: '9001',
      MARQUEE_DATA_DIR: '/env/data',
      MARQUEE_BASE_URL: 'https://env.example/',
      DATABASE_URL: '',
    };
    expect(parseConfig(['--port', '0', '--data-dir=/flag/data', 'consumers', 'list'], env)).toEqual({
      config: {
        host: '127.0.0.1',
        port: 0,
        baseUrl: 'https://env.example',
        baseUrlGiven: true,
        dataDir: '/flag/data',
        databaseUrl: undefined,
        trustProxy: false,
        demo: false,
        bulkReplace: true,
        logLevel: 'silent',
        metrics: true,
        metricsToken: undefined,
      },
      rest: ['consumers', 'list'],
    });
    const defaults = parseConfig([], {}).config;
    expect(defaults).toMatchObject({
      host: '127.0.0.1',
      port: 8710,
      baseUrl: 'http://127.0.0.1:8710',
      baseUrlGiven: false,
      trustProxy: false,
    });
    // An empty variable is unset: it must not turn into port 0.
    expect(parseConfig([], { MARQUEE_PORT: '' }).config.port).toBe(8710);
    expect(parseConfig(['--host', '0.0.0.0', '--port', '80'], {}).config.baseUrl).toBe('http://127.0.0.1:80');
    expect(parseConfig([], { MARQUEE_TRUST_PROXY: 'true' }).config.trustProxy).toBe(true);
    expect(parseConfig(['--demo'], {}).config.demo).toBe(true);
    expect(parseConfig([], { MARQUEE_DEMO: '1' }).config.demo).toBe(true);
    expect(parseConfig(['--no-bulk-replace'], {}).config.bulkReplace).toBe(false);
    expect(parseConfig([], { MARQUEE_BULK_REPLACE: '0' }).config.bulkReplace).toBe(false);
    for (const bad of [
      ['--port', 'http'],
      ['--port', '70000'],
      ['--port', '-1'],
      ['--base-url', 'example.com'],
      ['--trust-proxy', 'maybe'],
      ['--port'],
    ]) {
      expect(() => parseConfig(bad, {}), bad.join(' ')).toThrow();
    }
  });
});

describe('the service process on SQLite', () => {
  let dataDir: string;
  let svc: RunningService;
  let demoTitles: number;
  let added: Credentials;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'marquee-proc-'));
  });
  afterAll(async () => {
    if (svc?.proc.exitCode === null) await svc.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('first start creates the database, loads the demo catalog and prints the base URL and demo credentials', async () => {
    svc = await startService(['--data-dir', dataDir, '--port', '0']);
    console.log(`first start (SQLite, demo catalog load): ready in ${svc.readyMs} ms`);
    expect(existsSync(join(dataDir, 'marquee.sqlite'))).toBe(true);
    const port = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(svc.localUrl)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(svc.baseUrl).toBe(svc.localUrl);
    expect(svc.demo.key).toMatch(/^[a-z0-9]{24}$/);
    expect(svc.demo.secret).toMatch(/^[a-z0-9]{12}$/);
    demoTitles = sqliteTitleCount(dataDir);
    expect(demoTitles).toBeGreaterThan(3_000);
  });

  it('a signed search with those credentials returns real titles with box art links on the real port', async () => {
    const titles = titlesOf(await signedSearch(svc, svc.demo, 'dark knight'));
    expect(titles[0]!.title.regular).toMatch(/dark knight/i);
    for (const t of titles) expect(t.id).toMatch(new RegExp(`^${svc.baseUrl}/catalog/titles/(movies|series)/\\d+$`));
    const art = titles[0]!.box_art;
    for (const size of ['small', 'medium', 'large']) {
      expect(art[size]).toMatch(new RegExp(`^${svc.baseUrl}/`));
      const image = await get(art[size]!);
      expect(image.status).toBe(200);
      expect(image.contentType).toBe('image/svg+xml');
    }
  });

  it('consumers add --json prints credentials that work against the running service', async () => {
    const out = await runCli(['--data-dir', dataDir, 'consumers', 'add', '--name', 'Process Test App', '--json']);
    expect(out.code, out.stderr).toBe(0);
    added = JSON.parse(out.stdout);
    expect(Object.keys(added)).toEqual(['key', 'secret']);
    expect(added.key).toMatch(/^[a-z0-9]{24}$/);
    expect(titlesOf(await signedSearch(svc, added, 'dark knight')).length).toBeGreaterThan(0);
  });

  it('consumers list shows every consumer, as text and as JSON without secrets', async () => {
    const [text, json] = await Promise.all([
      runCli(['--data-dir', dataDir, 'consumers', 'list']),
      runCli(['--data-dir', dataDir, 'consumers', 'list', '--json']),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${svc.demo.key}  active   Marquee`);
    expect(text.stdout).toContain(`${added.key}  active   Process Test App`);
    expect(json.code, json.stderr).toBe(0);
    const list = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(list.map((c) => c.key)).toEqual([svc.demo.key, added.key]);
    for (const c of list) expect(c).not.toHaveProperty('secret');
  });

  it('consumers revoke refuses that key from then on (401), and an unknown key is an error', async () => {
    const [revoke, unknown] = await Promise.all([
      runCli(['--data-dir', dataDir, 'consumers', 'revoke', added.key]),
      runCli(['--data-dir', dataDir, 'consumers', 'revoke', 'nosuchconsumer']),
    ]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout.trim()).toBe(`revoked ${added.key}`);
    // The running service keeps a consumer for up to 5 s (README, operator commands): refused within that.
    await expect
      .poll(async () => (await signedSearch(svc, added, 'dark knight')).status, { timeout: 8_000, interval: 250 })
      .toBe(401);
    expectStatus(await signedSearch(svc, added, 'dark knight'), 401, 'Invalid Signature');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no consumer with key nosuchconsumer');
  });

  it('an unknown or incomplete command exits non-zero with usage', async () => {
    const results = await Promise.all([
      runCli(['--data-dir', dataDir, 'frobnicate']),
      runCli(['--data-dir', dataDir, 'consumers', 'add']),
      runCli(['--data-dir', dataDir, 'consumers']),
    ]);
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^usage: /);
      expect(r.stdout).toBe('');
    }
  });

  it('seed --synthetic 2000 adds 2000 titles that the running service finds', async () => {
    const out = await runCli(['--data-dir', dataDir, 'seed', '--synthetic', '2000']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^loaded 2000 synthetic titles in/);
    expect(sqliteTitleCount(dataDir)).toBe(demoTitles + 2000);
    const db = new SQLite(join(dataDir, 'marquee.sqlite'), { readonly: true });
    const synthetic = db
      .prepare(`SELECT id, title FROM titles WHERE type = 'movie' ORDER BY id DESC LIMIT 1`)
      .get() as { id: number; title: string };
    db.close();
    // The running service rereads the catalog generation about once a second: it finds them once it has.
    const found = async () => titlesOf(await signedSearch(svc, svc.demo, synthetic.title, 100)).map((t) => t.id);
    await expect.poll(found, { interval: 250 }).toContain(`${svc.baseUrl}/catalog/titles/movies/${synthetic.id}`);
    // Synthetic ids are fixed: a second seed would collide, so it is refused up front.
    const again = await runCli(['--data-dir', dataDir, 'seed', '--synthetic', '10']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('2000 synthetic titles are already loaded');
  });

  it('SIGTERM shuts it down cleanly (exit code 0)', async () => {
    expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(svc.output()).toContain('SIGTERM: shutting down');
  });

  it('a restart reuses the data: same demo consumer, nothing reloaded; SIGINT exits cleanly too', async () => {
    const previous = svc.demo;
    svc = await startService(['--data-dir', dataDir, '--port', '0']);
    console.log(`restart (SQLite, data reused): ready in ${svc.readyMs} ms`);
    expect(svc.demo).toEqual(previous);
    // A reload would have cleared the catalog first: the synthetic titles would be gone.
    expect(sqliteTitleCount(dataDir)).toBe(demoTitles + 2000);
    expect(titlesOf(await signedSearch(svc, svc.demo, 'dark knight')).length).toBeGreaterThan(0);
    expectStatus(await signedSearch(svc, added, 'dark knight'), 401, 'Invalid Signature');
    expect(await svc.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(svc.output()).toContain('SIGINT: shutting down');
  });

  it('takes port, data directory, base URL and proxy trust from MARQUEE_* environment variables', async () => {
    const previous = svc.demo;
    const port = await freePort();
    const publicBase = 'https://catalog.marquee.example';
    svc = await startService([], {
      MARQUEE_PORT: String(port),
      MARQUEE_DATA_DIR: dataDir,
      MARQUEE_BASE_URL: publicBase,
      MARQUEE_TRUST_PROXY: 'true',
    });
    expect(svc.localUrl).toBe(`http://127.0.0.1:${port}`);
    expect(svc.baseUrl).toBe(publicBase);
    expect(svc.demo).toEqual(previous);
    const titles = titlesOf(await signedSearch(svc, svc.demo, 'dark knight'));
    for (const t of titles) expect(t.id).toMatch(new RegExp(`^${publicBase}/catalog/titles/(movies|series)/\\d+$`));
    expect(titles[0]!.box_art.small).toMatch(new RegExp(`^${publicBase}/box_art/`));
    // Behind a TLS-terminating proxy: the client signed https://catalog.marquee.example/…
    const signed = new URL(signedUrl(svc.demo, 'GET', `${publicBase}/catalog/titles?term=dark%20knight`));
    const viaProxy = await getVia(svc.localUrl, signed.pathname + signed.search, {
      host: signed.host,
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.9',
    });
    expect(titlesOf(viaProxy).length).toBeGreaterThan(0);
    expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});

describe('the service process on PostgreSQL (DATABASE_URL)', () => {
  const server = inject('postgresUrl');
  const database = `proc_${process.pid}_${Date.now()}`;
  const databaseUrl = `${server}/${database}`;
  let dataDir: string;
  let svc: RunningService;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marquee-proc-pg-'));
    await adminStatement(server, `CREATE DATABASE ${database}`); // empty: no template, the service loads everything
  });
  afterAll(async () => {
    if (svc?.proc.exitCode === null) await svc.stop('SIGKILL');
    await adminStatement(server, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('first start fills the empty database and prints the base URL and demo credentials', async () => {
    svc = await startService(['--data-dir', dataDir, '--port', '0'], { DATABASE_URL: databaseUrl });
    console.log(`first start (PostgreSQL, demo catalog load): ready in ${svc.readyMs} ms`);
    expect(svc.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(svc.demo.key).toMatch(/^[a-z0-9]{24}$/);
    expect(existsSync(join(dataDir, 'marquee.sqlite'))).toBe(false);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM titles');
    await client.end();
    expect(Number(rows[0]!.n)).toBeGreaterThan(3_000);
  });

  it('a signed search with the printed credentials returns real titles with box art', async () => {
    const titles = titlesOf(await signedSearch(svc, svc.demo, 'dark knight'));
    expect(titles[0]!.title.regular).toMatch(/dark knight/i);
    expect(titles[0]!.id).toMatch(new RegExp(`^${svc.baseUrl}/catalog/titles/`));
    expect((await get(titles[0]!.box_art.medium!)).contentType).toBe('image/svg+xml');
  });

  it('consumers add with DATABASE_URL registers credentials the running service accepts', async () => {
    const out = await runCli(['consumers', 'add', '--name', 'PG Process App', '--json'], { DATABASE_URL: databaseUrl });
    expect(out.code, out.stderr).toBe(0);
    const added = JSON.parse(out.stdout) as Credentials;
    expect(titlesOf(await signedSearch(svc, added, 'dark knight')).length).toBeGreaterThan(0);
  });

  it('SIGTERM shuts it down cleanly (exit code 0)', async () => {
    expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
