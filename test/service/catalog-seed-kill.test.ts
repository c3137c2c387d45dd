import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signedUrl } from '../helpers/oauth-client.ts';
import { childEnv, LAUNCHER_ENTRY, ROOT, running, startService, type Exit } from '../helpers/service-process.ts';
import { parseXml } from '../helpers/xml.ts';
import { copyDemoStore } from '../helpers/service.ts';

/** The load's page cache for the killed seeds: small, so the load's pages reach the file within its first seconds. */
const PAGE_CACHE_MB = 2;
/** What the killed load must have written to the file (four page caches' worth) before it is killed. */
const WRITTEN_MB = 8;
/** Far more than WRITTEN_MB takes (about 3,500 titles), so the seed is still loading when it is killed. */
const SEED = '100000';
const SEED_TIMEOUT_MS = 600_000;

/**
 * `seed --synthetic` killed with SIGKILL in the middle of its load, then the service started on
 * what is left: it serves the catalog as it was before the seed (the load is one transaction,
 * rolled back from its journal on the next open), with every index, and the seed can run again.
 */
describe('a seed killed midway on SQLite', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
  });

  it(
    'on top of the demo catalog: the next start serves the demo whole, with its indexes, and the seed runs again',
    async () => {
      const dir = dataDir();
      copyDemoStore(dir);
      const before = readStore(dir);
      expect(before.titles).toBeGreaterThan(3_000);

      await killSeedMidLoad(dir);

      const svc = await startService(['--data-dir', dir, '--port', '0']);
      const title = before.aDemoTitle;
      const found = await fetch(signedUrl(svc.demo, 'GET', `${svc.localUrl}/catalog/titles?${termQuery(title.title)}`));
      expect(found.status).toBe(200);
      const ids = [parseXml(await found.text()).catalog_titles.catalog_title ?? []].flat().map((t) => String(t.id));
      expect(ids).toContain(`${svc.baseUrl}/catalog/titles/movies/${title.id}`);
      expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });

      expect(readStore(dir)).toEqual({ ...before, demoConsumer: expect.any(String) });
      const again = await runSeed(dir, '2000');
      expect(again.code, again.stderr).toBe(0);
      expect(readStore(dir).titles).toBe(before.titles + 2_000);
    },
    SEED_TIMEOUT_MS,
  );

  it(
    'into a fresh store: the next start finds no half catalog and loads the demo',
    async () => {
      const dir = dataDir();
      await killSeedMidLoad(dir);

      const svc = await startService(['--data-dir', dir, '--port', '0']);
      expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      const after = readStore(dir);
      const template = readStore(templateDir());
      expect(after.synthetic).toBe(0);
      expect(after.titles).toBe(template.titles);
      expect(after.indexes).toEqual(template.indexes);
      expect(after.integrity).toBe('ok');
    },
    SEED_TIMEOUT_MS,
  );

  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-seed-kill-'));
    dirs.push(dir);
    return dir;
  }

  function templateDir(): string {
    const dir = dataDir();
    copyDemoStore(dir);
    return dir;
  }
});

/**
 * Starts a seed with a small page cache and kills it once its load has written WRITTEN_MB to the
 * file or its log, before it ends: the load's pages reached the file, and the journal they need
 * rolling back from is hot (left behind, not empty).
 */
async function killSeedMidLoad(dir: string): Promise<void> {
  const path = join(dir, 'marquee.sqlite');
  const written = () =>
    [path, `${path}-wal`].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
  const start = written();
  const seed = ['seed', '--synthetic', SEED, '--page-cache-mb', String(PAGE_CACHE_MB)];
  const proc = spawn(process.execPath, [...LAUNCHER_ENTRY, '--data-dir', dir, ...seed], {
    cwd: ROOT,
    env: childEnv({}),
    stdio: 'ignore',
  });
  running.add(proc);
  const exited = new Promise<Exit>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  let ended: Exit | undefined;
  void exited.then((exit) => (ended = exit));
  while (written() < start + WRITTEN_MB * 1024 * 1024 && !ended)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(ended, 'the seed ended before it could be killed midway').toBeUndefined();
  proc.kill('SIGKILL');
  expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
  running.delete(proc);
  expect(statSync(`${path}-journal`, { throwIfNoEntry: false })?.size, 'a hot rollback journal').toBeGreaterThan(0);
}

function runSeed(dir: string, count: string): Promise<Exit & { stderr: string }> {
  const proc = spawn(process.execPath, [...LAUNCHER_ENTRY, '--data-dir', dir, 'seed', '--synthetic', count], {
    cwd: ROOT,
    env: childEnv({}),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(proc);
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    proc.once('close', (code, signal) => {
      running.delete(proc);
      resolve({ code, signal, stderr });
    }),
  );
}

/** What a store holds, read straight from the file (opened read-write: a hot journal needs rolling back). */
function readStore(dir: string) {
  const db = new SQLite(join(dir, 'marquee.sqlite'), { fileMustExist: true });
  try {
    const one = <T>(query: string) => db.prepare(query).get() as T;
    const count = (query: string) => one<{ n: number }>(query).n;
    return {
      titles: count('SELECT count(*) AS n FROM titles'),
      synthetic: count('SELECT count(*) AS n FROM titles WHERE id > 100000000'),
      people: count('SELECT count(*) AS n FROM people'),
      credits: count('SELECT count(*) AS n FROM credits'),
      titleSearch: count(`SELECT count(*) AS n FROM title_search WHERE title_search MATCH '"the"*'`),
      indexes: db.prepare(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name`).all(),
      meta: db.prepare(`SELECT key, value FROM meta WHERE key IN ('catalog', 'synthetic') ORDER BY key`).all(),
      demoConsumer: one<{ value: string } | undefined>(`SELECT value FROM meta WHERE key = 'demo_consumer'`)?.value,
      aDemoTitle: one<{ id: number; title: string }>(
        `SELECT id, title FROM titles WHERE type = 'movie' AND id < 100000000 ORDER BY id LIMIT 1 OFFSET 100`,
      ),
      integrity: one<{ integrity_check: string }>('PRAGMA integrity_check').integrity_check,
    };
  } finally {
    db.close();
  }
}

function termQuery(title: string): string {
  return new URLSearchParams({ term: title, max_results: '100' }).toString().replace(/\+/g, '%20');
}
