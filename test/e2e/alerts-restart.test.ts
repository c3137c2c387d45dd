import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { AlertList } from '../../shared/alerts.ts';
import { LAUNCHER_ENTRY, startService } from '../helpers/service-process.ts';
import { freePort } from '../helpers/postgres-server.ts';
import {
  apiCall,
  expectNoSeriousAxe,
  frameShown,
  launchBrowser,
  openSignedIn,
  serviceForApp,
  shot,
  startApp,
  startTestService,
  type AppPage,
  type RunningApp,
  type TestService,
} from './helpers/index.ts';
import { alive, descendants } from './helpers/processes.ts';
import { anotherDevice } from './queue-subscriber.ts';
import { otherStreamingRefs } from './demo-titles.ts';
import { stopAppOnService } from './app-on-service.ts';

/**
 * Alerts are told once, for life: three alerts are told (a saved title released, one leaving in
 * two days, one whose window closed), the app is killed with SIGKILL right after, and started
 * again three times (killed, stopped, killed) with the service moved to a new port in between:
 * the list and the unread count never change and nothing is told again. Then, on the Alerts
 * screen, an alert whose title left the queue offers neither Move to top nor Remove and still
 * opens its title; Remove is offered once, and after it the row says so; focus never falls to
 * the page after an action.
 */
let svc: TestService;
let browser: Browser;
let app: RunningApp;
let view: AppPage;
let page: Page;
/** The service's address now: it moves to a new port between launches. */
let serviceUrl: string;
const userDataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-alerts-restart-'));
vi.setConfig({ testTimeout: 300_000 });

/** Movies of the demo catalog: saved then released, queued then leaving soon, queued then gone. */
const RELEASED = 60_000_010;
const LEAVING = 60_000_011;
const GONE = 60_000_012;
const pathOf = (id: number) => `/catalog/titles/movies/${id}`;
/** Two days from now, to the second, as the operator's command takes it. */
const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

async function launch(): Promise<void> {
  app = await startApp({
    service: { ...serviceForApp(svc), url: serviceUrl },
    userDataDir,
    watchAlerts: true,
  });
  view = await openSignedIn(browser, app);
  page = view.page;
}

/** SIGKILL to the app and everything it started: nothing gets to save on its way out. */
async function killApp(): Promise<void> {
  await view.close().catch(() => undefined);
  const pids = [app.proc.pid!, ...descendants(app.proc.pid!)];
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await expect.poll(() => pids.some(alive), { timeout: 15_000 }).toBe(false);
}

async function stopApp(): Promise<void> {
  await view.close().catch(() => undefined);
  await app.stop();
}

/** The same data served at a new port (say the old one was taken): every ref the service answers changes. */
async function moveService(): Promise<void> {
  await svc.stop();
  const port = await freePort();
  const args = ['--data-dir', svc.dataDir, '--host', '127.0.0.1', '--port', String(port), '--demo'];
  svc.running = await startService(args, {}, LAUNCHER_ENTRY);
  serviceUrl = svc.running.localUrl;
  expect(new URL(serviceUrl).port).toBe(String(port));
}

/** The list as a person sees it: its refs without the address they carry. */
const shown = (list: AlertList) => ({
  unread: list.unread,
  alerts: list.alerts.map(({ ref, ...rest }) => ({ ...rest, path: new URL(ref).pathname })),
});
const sidebarAlerts = (unread: number) =>
  frameShown(page).getByRole('button', { name: new RegExp(`^Alerts\\s*,\\s*${unread} unread$`) });

beforeAll(async () => {
  [svc, browser] = await Promise.all([startTestService(), launchBrowser()]);
  serviceUrl = svc.url;
  const subscriber = await anotherDevice(svc);
  // Every check reads each queued title at the consumer's pace (the demo's forty took seconds), so
  // the queue holds only ours: one that stays first, the three, and one more leaving soon (so Move
  // to top is still offered once the leaving and gone titles are removed).
  await subscriber.clear('instant');
  await subscriber.clear('disc');
  const [first, alsoLeaving] = otherStreamingRefs(svc, [RELEASED, LEAVING, GONE], 2) as [string, string];
  await svc.setAvailability(RELEASED, ['--from', '2035-01-01', '--until', 'never']);
  for (const id of [LEAVING, GONE]) await svc.setAvailability(id, ['--from', '2020-01-01', '--until', 'never']);
  await svc.setAvailability(Number(alsoLeaving.split('/').pop()), ['--from', '2020-01-01', '--until', inTwoDays()]);
  await subscriber.add(first);
  for (const id of [RELEASED, LEAVING, GONE]) await subscriber.add(`${svc.url}${pathOf(id)}`);
  await subscriber.add(alsoLeaving);
  await launch();
}, 300_000);

afterAll(async () => {
  await stopAppOnService({ view, app, browser, svc });
  rmSync(userDataDir, { recursive: true, force: true });
}, 60_000);

let told: ReturnType<typeof shown>;

test('three alerts told, the app killed right after, restarted thrice at new addresses: nothing told again', async () => {
  await apiCall(app, 'alerts.check', {}); // the saved title is seen waiting, the others available
  await svc.setAvailability(RELEASED, ['--from', 'now', '--until', 'never']);
  await svc.setAvailability(LEAVING, ['--from', '2020-01-01', '--until', inTwoDays()]);
  await svc.setAvailability(GONE, ['--from', '2020-01-01', '--until', '2021-01-01']);
  // The running service sees the operator's change within a second (its catalog generation): check until then.
  const ourKinds = (list: AlertList) =>
    shown(list)
      .alerts.filter((a) => [RELEASED, LEAVING, GONE].some((id) => a.path === pathOf(id)))
      .map((a) => a.kind)
      .sort();
  let list: AlertList | undefined;
  await expect
    .poll(async () => ourKinds((list = await apiCall(app, 'alerts.check', {}))), { interval: 500 })
    .toEqual(['available', 'gone', 'leaving']);
  told = shown(list!);
  expect(told.unread).toBeGreaterThanOrEqual(3);
  await killApp(); // right after the alerts were told

  const stops = [killApp, stopApp, killApp];
  for (const [i, stop] of stops.entries()) {
    if (i < 2) await moveService();
    await launch();
    // The check on start, and two more: each sees what the last launch saw.
    await apiCall(app, 'alerts.check', {});
    await apiCall(app, 'alerts.check', {});
    const after = await apiCall(app, 'alerts.list', {});
    expect(shown(after), `launch ${i + 2}`).toEqual(told);
    expect(after.alerts.every((a) => a.ref.startsWith(`${serviceUrl}/`))).toBe(true);
    await expect.poll(() => sidebarAlerts(told.unread).count(), { timeout: 30_000 }).toBe(1);
    if (i < stops.length - 1) await stop();
  }
});

test('an alert whose title left the queue offers no Move to top and no Remove, and still opens its title', async () => {
  const leavingRef = `${serviceUrl}${pathOf(LEAVING)}`;
  await apiCall(app, 'queue.remove', { kind: 'instant', ref: leavingRef });
  await frameShown(page)
    .getByRole('button', { name: /^Alerts/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  const row = page.locator('li.alert-row[data-kind="leaving"]', { hasText: 'No longer in your Instant queue.' });
  await row.waitFor({ timeout: 30_000 });
  const name = (await row.locator('.alert-words button').textContent())!;
  expect(await page.getByRole('button', { name: `Move to top: ${name}`, exact: true }).count()).toBe(0);
  expect(await page.getByRole('button', { name: `Remove: ${name}`, exact: true }).count()).toBe(0);

  await row.getByRole('button', { name, exact: true }).click();
  const panel = page.locator('aside.detail-panel');
  await panel.getByRole('heading', { name }).first().waitFor({ timeout: 30_000 });
  expect(await panel.getByText(/couldn.t load|unreachable|no longer in the catalog/i).count()).toBe(0);
  await page.keyboard.press('Escape');
});

/** Where the focus is, in words, after an action on the alert `acted`. */
function focusAfter(acted: string): Promise<string> {
  return page.evaluate<string>(`(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'the page';
    if (active.id === 'screen-heading') return 'the heading';
    const row = active.closest('li');
    return row && row.dataset.alertId !== ${JSON.stringify(acted)} && active.closest('.alert-actions')
      ? 'the next alert'
      : active.outerHTML;
  })()`);
}

test('Remove is offered once for a queued title gone; after it the row says so, and focus moves on', async () => {
  const row = page
    .locator('li.alert-row[data-kind="gone"]', { hasText: 'is no longer available' })
    .filter({ has: page.getByRole('button', { name: /^Remove: / }) })
    .first();
  await row.waitFor({ timeout: 30_000 });
  const name = (await row.locator('.alert-words button').textContent())!;
  const id = (await row.getAttribute('data-alert-id'))!;
  const remove = page.getByRole('button', { name: `Remove: ${name}`, exact: true });
  await remove.focus();
  await page.keyboard.press('Enter');
  const acted = page.locator(`li[data-alert-id="${id}"]`);
  await acted.getByText('Removed from your Instant queue.').waitFor({ timeout: 30_000 });
  expect(await remove.count()).toBe(0);
  // A title gone cannot be queued again: nothing more is offered.
  expect(await acted.locator('.alert-actions button').count()).toBe(0);
  expect(['the next alert', 'the heading']).toContain(await focusAfter(id));
  const queue = await apiCall(app, 'queue.list', { kind: 'instant' });
  expect(queue.items.some((item) => item.ref.endsWith(pathOf(GONE)))).toBe(false);
  await shot(page, 'alerts-removed');
  await expectNoSeriousAxe(page, 'the Alerts screen after Remove');
});

test('after Move to top focus goes to the next alert or the heading, never the page', async () => {
  const moveToTop = page.getByRole('button', { name: /^Move to top: / }).first();
  await moveToTop.waitFor({ timeout: 30_000 });
  const label = (await moveToTop.getAttribute('aria-label'))!;
  const id = (await moveToTop.evaluate((el) => el.closest('li')!.dataset.alertId))!;
  await moveToTop.focus();
  await page.keyboard.press('Enter');
  // First in the queue now: nothing to move.
  await expect.poll(() => page.getByRole('button', { name: label, exact: true }).count(), { timeout: 30_000 }).toBe(0);
  expect(['the next alert', 'the heading']).toContain(await focusAfter(id));
});
