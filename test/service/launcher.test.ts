import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../helpers/oauth-client.ts';
import { parseXml } from '../helpers/xml.ts';
import {
  childEnv,
  LAUNCHER_ENTRY,
  ROOT,
  running,
  startService,
  type RunningService,
} from '../helpers/service-process.ts';

/**
 * `npm run service` is `node scripts/service.mjs`: service/main.ts bundled by esbuild (rebuilt when
 * a source changes) and imported. The first start here loads the demo catalog, which reads the seed
 * file beside service/data/seed-format.ts: the bundle must still find it there.
 */
describe('the scripts/service.mjs launcher', () => {
  let dataDir: string;
  let svc: RunningService | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'marquee-launcher-'));
  });
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => startService(['--data-dir', dataDir, '--port', '0'], {}, LAUNCHER_ENTRY);

  async function searchTitles(service: RunningService): Promise<unknown[]> {
    const res = await fetch(
      signedUrl(service.demo, 'GET', `${service.localUrl}/catalog/titles?term=dark%20knight&max_results=5`),
    );
    const body = await res.text();
    expect(res.status, body).toBe(200);
    return parseXml(body).catalog_titles.catalog_title ?? [];
  }

  it('starts (demo catalog loaded from the seed beside the source), prints working demo credentials', async () => {
    svc = await start();
    console.log(`launcher, first start (a rebuild if sources changed, demo catalog load): ready in ${svc.readyMs} ms`);
    expect(svc.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(svc.demo.key).toMatch(/^[a-z0-9]{24}$/);
    expect(svc.output()).toMatch(/^demo sign-in: login \S+, password \S+$/m);
    expect((await searchTitles(svc)).length).toBeGreaterThan(0);
    expect(await svc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('runs an operator command', () => {
    const result = spawnSync(process.execPath, [...LAUNCHER_ENTRY, '--data-dir', dataDir, 'consumers', 'list'], {
      cwd: ROOT,
      env: childEnv({}),
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${svc!.demo.key}  active   Marquee`);
  });

  it('restarts reusing the data: same demo consumer, serving at once; SIGINT exits cleanly', async () => {
    const previous = svc!.demo;
    svc = await start();
    console.log(`launcher, restart (bundle cached, data reused): ready in ${svc.readyMs} ms`);
    expect(svc.demo).toEqual(previous);
    expect((await searchTitles(svc)).length).toBeGreaterThan(0);
    expect(await svc.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(svc.output()).toContain('SIGINT: shutting down');
  });
});
