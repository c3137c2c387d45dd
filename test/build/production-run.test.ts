import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseReadiness } from '../../electron/embedded-service.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { runBuilt, type AppProcess } from './app-process.ts';
import { buildBundles, productionApp } from './shipped.ts';

/**
 * The built files run as the installed app runs them: from a folder whose node_modules holds the
 * production packages only, and without tsx. (main.mjs itself needs the Electron binary, absent
 * here; the web host bundles the same core, so it stands in for it.)
 */

let appDir: string;
const running: AppProcess[] = [];

beforeAll(async () => {
  appDir = mkdtempSync(join(tmpdir(), 'marquee-installed-'));
  await buildBundles(join(appDir, 'dist'), ['service', 'web-host']);
  productionApp(appDir);
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((app) => app.stop())); // after a failure: nothing, not even the embedded service, left running
  rmSync(appDir, { recursive: true, force: true });
}, 30_000);

function run(file: string, args: string[], env: Record<string, string> = {}): AppProcess {
  const app = runBuilt(appDir, file, args, env);
  running.push(app);
  return app;
}

test('the standalone service starts from dist/service.mjs on a fresh data folder and answers a signed catalog request', async () => {
  const service = run('dist/service.mjs', [
    '--data-dir',
    join(appDir, 'service-data'),
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ]);
  await service.waitFor(/^demo consumer secret: \S+$/m);
  const ready = parseReadiness(service.output())!;
  const url = `${ready.url}/catalog/titles?term=matrix`;
  const res = await fetch(url, { headers: { authorization: authHeader(ready.consumer, 'GET', url) } });
  const body = await res.text();
  expect(res.status, body).toBe(200);
  expect(body).toMatch(/^<\?xml[^>]*\?>\s*<catalog_titles>/);
  expect(body).toMatch(/<catalog_title>[\s\S]*<title [^>]*regular="[^"]*Matrix/);
  expect(await service.stop()).toBe(0);
}, 90_000);

test('the web host runs the app core from dist/web-host.mjs and reaches the service’s sign-in page', async () => {
  const host = run('dist/web-host.mjs', [], {
    MARQUEE_USER_DATA_DIR: join(appDir, 'user-data'),
    MARQUEE_NO_BROWSER: '1',
  });
  const launch = new URL((await host.waitFor(/^Marquee is running at (\S+)$/m))[1]!);
  const token = /^#token=([\w-]+)$/.exec(launch.hash)![1]!;
  const api = (operation: string, input: unknown) =>
    fetch(`${launch.origin}/api/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
    });
  const signIn = api('auth.signIn', { mode: 'loopback' }); // resolves once the sign-in ends
  const signInUrl = (await host.waitFor(/^Open this address to sign in: (\S+)$/m))[1]!;
  const page = await fetch(signInUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<form[\s\S]*type="password"/);
  expect((await api('auth.cancel', {})).status).toBe(200);
  expect(await (await signIn).json()).toMatchObject({ ok: false });
  expect(await host.stop()).toBe(0);
}, 90_000);
