import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createServer, type Server } from 'node:net';
import { LAUNCHER_ENTRY, startService } from '../helpers/service-process.ts';
import {
  expectNoSeriousAxe,
  launchBrowser,
  openApp,
  openSignedIn,
  shot,
  startApp,
  type AppPage,
  type RunningApp,
} from './helpers/index.ts';
import { alive, descendants } from './helpers/processes.ts';
import { deviceCredentials, subscriberAt, type DeviceCredentials, type Subscriber } from './queue-subscriber.ts';
import { streamingMovieRefs } from './demo-titles.ts';
import { row, showQueue } from './queue-session.ts';
import { copyDemoStore } from '../helpers/service.ts';
import { serviceDataDir } from '../../electron/embedded-service.ts';

/**
 * Issue 25: edits made while the embedded service does not answer (SIGSTOP) survive the whole app
 * being killed (SIGKILL: the web host and its service) and are sent on the next start, in order,
 * with nobody touching the app; the service keeps its address across the restart. Edits the
 * service can no longer make (their titles left the queue on another device while the app was
 * closed) are shown in words, and retried or discarded through the UI. The service's queue is
 * read over signed HTTP as "another device".
 */

vi.setConfig({ testTimeout: 240_000 });

let userDataDir: string;
let app: RunningApp;
let browser: Browser;
let view: AppPage | undefined;
let other: Subscriber;
let device: DeviceCredentials;
let titles: string[];

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-outbox-'));
  copyDemoStore(serviceDataDir(userDataDir));
  [app, browser] = await Promise.all([startApp({ userDataDir }), launchBrowser()]);
  device = await deviceCredentials(serviceDataDir(userDataDir), app.demo.login);
  other = subscriberAt(app.serviceOrigin, device);
  await other.clear('instant');
  titles = streamingMovieRefs({ url: app.serviceOrigin }, 6);
  await other.fill(titles);
  view = await openSignedIn(browser, app);
}, 240_000);

afterAll(async () => {
  await view?.close();
  await browser?.close();
  await app?.stop();
  rmSync(userDataDir, { recursive: true, force: true });
}, 60_000);

const statusLine = (page: Page) => page.getByRole('status', { name: 'Status' });
const outboxOps = () =>
  (JSON.parse(readFileSync(join(userDataDir, 'queue-outbox.json'), 'utf8')) as { entries: unknown[] }).entries.length;

/** The embedded service: the one process below the app whose arguments name its data folder. */
function servicePid(): number {
  const dataDir = join(userDataDir, 'service');
  const found = descendants(app.proc.pid!).filter((pid) => argsOf(pid).includes(`--data-dir ${dataDir} `));
  if (found.length !== 1) throw new Error(`expected one service process, found ${found.length}`);
  return found[0]!;
}

function argsOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

/** Power loss, as near as a test gets: every process of the app killed at once, nothing flushed. */
async function killWholeApp(): Promise<void> {
  const tree = [app.proc.pid!, ...descendants(app.proc.pid!)];
  for (const pid of tree) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100 && tree.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
  expect(tree.filter(alive)).toEqual([]);
}

test('edits made while the service hangs survive a SIGKILL of the whole app and land in order on the next start', async () => {
  const page = view!.page;
  await showQueue(page);
  const [t0, t1, t2, t3, t4, t5] = titles as [string, string, string, string, string, string];
  const name = async (ref: string) => (await row(page, ref).locator('.queue-title').textContent())!;
  const names = new Map(await Promise.all(titles.map(async (ref) => [ref, await name(ref)] as const)));
  const toTop = (ref: string) => row(page, ref).getByRole('button', { name: `Move “${names.get(ref)}” to top` });

  process.kill(servicePid(), 'SIGSTOP'); // it accepts connections and never answers
  for (const ref of [t2, t4, t1, t5]) await toTop(ref).click();
  await statusLine(page).getByText('4 edits waiting to be sent.').waitFor({ timeout: 60_000 });
  expect(outboxOps()).toBe(4);
  const port = new URL(app.serviceOrigin).port;
  await view!.close();
  view = undefined;
  await killWholeApp();

  // While Marquee is closed, another device takes two of the moved titles out of the queue.
  const alone = await startService(['--port', port, '--data-dir', join(userDataDir, 'service')], {}, LAUNCHER_ENTRY);
  try {
    await expect.poll(() => other.order().catch(() => null), { interval: 500 }).not.toBeNull();
    await other.replace([t0, t2, t3, t4]);
  } finally {
    await alone.stop('SIGTERM');
  }

  app = await startApp({ userDataDir });
  expect(app.serviceOrigin).toBe(`http://127.0.0.1:${port}`); // one address for life
  // No page open, nobody touching the app: the two moves that can still be made land, in order.
  await expect.poll(() => other.order(), { timeout: 60_000, interval: 500 }).toEqual([t4, t2, t0, t3]);

  // The two that cannot are kept and told, in words, when the person opens the app.
  view = await openApp(browser, app);
  const page2 = view.page;
  const refusedLine = statusLine(page2).getByText(/2 edits couldn’t be made/);
  await refusedLine.waitFor();
  await page2.getByRole('button', { name: 'Review edits' }).click();
  const dialog = page2.getByRole('dialog', { name: 'Edits the service couldn’t make' });
  const list = dialog.getByRole('list', { name: 'Refused edits' });
  await expect
    .poll(() => list.getByRole('listitem').allInnerTexts())
    .toEqual([
      expect.stringContaining(`Move “${names.get(t1)}” to position 1 couldn’t be made: “${names.get(t1)}” was removed`),
      expect.stringContaining(`Move “${names.get(t5)}” to position 1 couldn’t be made: “${names.get(t5)}” was removed`),
    ]);
  expect(outboxOps()).toBe(2); // kept in the outbox file, not dropped
  await shot(page2, 'refused-edits-dialog');
  await expectNoSeriousAxe(page2, 'the refused edits dialog');

  // Retry once the title is back (added again on the other device): the move is made.
  await other.add(t1);
  await dialog.getByRole('button', { name: `Retry: Move “${names.get(t1)}” to position 1` }).click();
  await expect.poll(() => other.order(), { interval: 500 }).toEqual([t1, t4, t2, t0, t3]);
  await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
  // Focus goes to the next edit's first action, never to the page body: the keyboard discards it.
  await expect
    .poll(() => page2.evaluate('document.activeElement?.getAttribute("aria-label")'))
    .toBe(`Retry: Move “${names.get(t5)}” to position 1`);
  await page2.keyboard.press('Tab');
  await page2.keyboard.press('Enter');
  await dialog.getByText('Nothing left to review').waitFor();
  await expect.poll(() => outboxOps()).toBe(0);
  await page2.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await statusLine(page2).getByText('Ready').waitFor();
  expect(await other.order()).toEqual([t1, t4, t2, t0, t3]);
  expect(view.problems).toEqual([]);
});

test('a port another program took while the app was down: the service starts elsewhere and the kept edit lands there', async () => {
  const page = view!.page;
  await showQueue(page);
  const before = await other.order();
  const last = before.at(-1)!;
  const lastName = (await row(page, last).locator('.queue-title').textContent())!;
  process.kill(servicePid(), 'SIGSTOP');
  await row(page, last)
    .getByRole('button', { name: `Move “${lastName}” to top` })
    .click();
  await statusLine(page).getByText('1 edit waiting to be sent.').waitFor({ timeout: 60_000 });
  const oldOrigin = app.serviceOrigin;
  await view!.close();
  view = undefined;
  await killWholeApp();

  const squatter = await hold(Number(new URL(oldOrigin).port));
  try {
    app = await startApp({ userDataDir });
    expect(app.serviceOrigin).not.toBe(oldOrigin);
    // The same subscriber, reading the service at its new address: ids are URLs there now.
    const moved = subscriberAt(app.serviceOrigin, device);
    const there = (ref: string) => app.serviceOrigin + new URL(ref).pathname;
    await expect
      .poll(() => moved.order(), { timeout: 60_000, interval: 500 })
      .toEqual([last, ...before.filter((r) => r !== last)].map(there));
    // The app drops the edit from its file once the service's answer is read: after the move, not with it.
    await expect.poll(() => outboxOps()).toBe(0);
  } finally {
    await new Promise((done) => squatter.close(done));
  }
});

/** Listens on 127.0.0.1:`port`, as another program holding it would. */
function hold(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
