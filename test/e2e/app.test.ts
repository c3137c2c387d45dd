import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { ROOT, childEnv } from '../helpers/service-process.ts';

/**
 * The app end to end, as a user runs it: `npm start` without Electron (so the web host and its
 * embedded service), the printed address opened in a real headless Chromium, a catalog search with
 * box art, and a sign-in through the service's own page and the core's loopback callback.
 */

let dir: string;
let proc: ChildProcess;
let stdout = '';
let stderr = '';
let exited: Promise<number | null>;
let launchUrl: string;
let hostUrl: string;
let serviceOrigin: string;
let demo: { login: string; password: string };
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** Resolves with the first match of `re` in stdout, polling while the process runs. */
async function waitForLine(re: RegExp, timeoutMs: number, from = 0): Promise<RegExpExecArray> {
  const started = Date.now();
  for (;;) {
    const m = re.exec(stdout.slice(from));
    if (m) return m;
    if (proc.exitCode !== null) throw new Error(`start.mjs exited early:\n${stdout}\n${stderr}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no ${re} after ${timeoutMs} ms:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pids of every process below `pid` (Linux /proc via ps). */
function descendants(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) (found.push(c), walk(c));
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-e2e-'));
  const noElectron = join(dir, 'no-electron');
  mkdirSync(noElectron);
  proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: childEnv({ MARQUEE_USER_DATA_DIR: join(dir, 'user-data'), MARQUEE_NO_BROWSER: '1', ELECTRON_OVERRIDE_DIST_PATH: noElectron }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const [running, browserReady] = await Promise.all([waitForLine(/^Marquee is running at (\S+)$/m, 100_000), launchBrowser()]);
  browser = browserReady;
  launchUrl = running[1]!;
  hostUrl = new URL(launchUrl).origin;
  expect(new URL(launchUrl).hash).toMatch(/^#token=[\w-]+$/);
  serviceOrigin = new URL(/^Embedded service listening on (http:\/\/\S+)/m.exec(stdout)![1]!).origin;
  const sign = /^Demo sign-in: login (\S+), password (\S+)$/m.exec(stdout)!;
  demo = { login: sign[1]!, password: sign[2]! };

  page = await (await browser.newContext()).newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (proc && proc.exitCode === null) {
    const tree = descendants(proc.pid!);
    proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))]);
    let described = '';
    try {
      described = execFileSync('ps', ['-o', 'pid=,args=', '-p', tree.join(',') || '0'], { encoding: 'utf8' }).trim();
    } catch {
      // none of them is running any more
    }
    // Grandchildren may take a moment after their parent exits.
    for (let i = 0; i < 50 && tree.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    const left = tree.filter(alive);
    if (left.length) console.error(`left after SIGTERM:\n${described}`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(left, 'processes left running after SIGTERM').toEqual([]);
  } else rmSync(dir, { recursive: true, force: true });
}, 30_000);

test('opens signed out, and a search shows titles whose box art loads from the embedded service', async () => {
  await page.goto(launchUrl);
  await page.getByText('Not signed in').waitFor();
  expect(page.url()).toBe(`${hostUrl}/`); // the token left the address bar
  const search = page.getByRole('searchbox', { name: 'Search titles' });
  await search.fill('matrix');
  const first = page.locator('ul.results li').first();
  await first.waitFor();
  await expect.poll(() => page.locator('ul.results .title').allTextContents()).toContain('The Matrix');

  const images = page.locator('ul.results img');
  const count = await images.count();
  expect(count).toBeGreaterThan(0);
  // (No DOM lib in this tsconfig: the page-side code reads the few image fields it needs structurally.)
  type Img = { src: string; naturalWidth: number };
  const srcs = await images.evaluateAll((imgs) => imgs.map((i) => (i as unknown as Img).src));
  for (const src of srcs) expect(new URL(src).origin).toBe(serviceOrigin);
  // loading="lazy": the images on screen load, and decode (the CSP's img-src allows the service's origin).
  await page.waitForFunction(
    `(() => {
      const onScreen = [...document.querySelectorAll('ul.results img')].filter((i) => i.getBoundingClientRect().top < innerHeight);
      return onScreen.length > 0 && onScreen.every((i) => i.complete && i.naturalWidth > 0);
    })()`,
    undefined,
    { timeout: 15_000 },
  );
  expect(await first.locator('img').evaluate((i) => (i as unknown as Img).naturalWidth)).toBeGreaterThan(0);
});

test('signs in through the service page in the browser and the loopback callback', async () => {
  const printedBefore = stdout.length;
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signInUrl = (await waitForLine(/^Open this address to sign in: (\S+)$/m, 15_000, printedBefore))[1]!;
  expect(new URL(signInUrl).origin).toBe(serviceOrigin);

  const signInPage = await page.context().newPage();
  const signInErrors: string[] = [];
  signInPage.on('console', (m) => {
    if (m.type() === 'error') signInErrors.push(m.text());
  });
  await signInPage.goto(signInUrl);
  await signInPage.locator('input[name="login"]').fill(demo.login);
  await signInPage.locator('input[name="password"]').fill(demo.password);
  const terms = signInPage.locator('input[name="accept_tos"]');
  if (await terms.count()) await terms.check();
  // The service redirects the browser to the core's loopback callback, which says it is done.
  await Promise.all([
    signInPage.waitForURL((u) => u.hostname === '127.0.0.1' && u.pathname.startsWith('/marquee/oauth-callback/'), { timeout: 15_000 }),
    signInPage.getByRole('button', { name: 'Allow access' }).click(),
  ]).catch(async (error: unknown) => {
    if (!signInErrors.length) await signInPage.waitForEvent('console', { timeout: 2000 }).catch(() => {}); // a CSP report comes just after
    throw new Error(`the browser did not reach the loopback callback (${error instanceof Error ? error.message.split('\n')[0] : error}); sign-in page console: ${JSON.stringify(signInErrors)}`);
  });
  await signInPage.getByRole('heading', { name: 'Signed in' }).waitFor();
  await signInPage.close();

  await page.getByText(/^Signed in as /).waitFor({ timeout: 15_000 });
  expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
  // The search results are still there for the screenshot.
  expect(await page.locator('ul.results li').count()).toBeGreaterThan(0);
  await page.screenshot({ path: '/tmp/marquee-e2e.png', fullPage: true });
  expect(problems).toEqual([]);
});

test('a page without the launch token cannot use the API, and says how to get in', async () => {
  const context = await browser.newContext(); // fresh: empty sessionStorage
  try {
    const bare = await context.newPage();
    const refused: number[] = [];
    bare.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) refused.push(r.status());
    });
    await bare.goto(`${hostUrl}/`);
    const alert = bare.getByRole('alert');
    await alert.first().waitFor();
    expect(await alert.first().textContent()).toMatch(/Missing or wrong token.*Open the address npm start printed/);
    expect(await bare.getByText(/Not signed in|Signed in as/).count()).toBe(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s) => s === 401)).toBe(true);
  } finally {
    await context.close();
  }
});
