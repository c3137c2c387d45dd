import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import {
  apiCall,
  expectNoSeriousAxe,
  frameShown,
  openSignedIn,
  serviceForApp,
  shot,
  startApp,
  type AppPage,
  type RunningApp,
  type TestService,
} from './helpers/index.ts';
import { type Subscriber } from './queue-subscriber.ts';
import { otherStreamingRefs } from './demo-titles.ts';
import { startAppOnService, stopAppOnService } from './app-on-service.ts';

/**
 * Availability alerts end to end: the app (web host + Chromium) against a service the test runs.
 * A title saved in the instant queue is released with the operator's command while the app
 * watches; within the (short) poll interval the Alerts screen shows exactly one alert and the
 * page made exactly one notification (the browser's Notification, observed through an init
 * script that stands in for it); after a restart of the app, none again. The queue is read back
 * from the service over signed HTTP.
 */
let svc: TestService;
let browser: Browser;
let subscriber: Subscriber;
let app: RunningApp;
let view: AppPage;
let page: Page;
/** The app's user-data folder, kept across its restart (the app's own helper removes a folder it made). */
const userDataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-alerts-'));
vi.setConfig({ testTimeout: 240_000 });

/** A movie of the demo catalog this file alone uses. */
const TITLE_ID = 60_000_010;
/** The app checks every 6 s here (the setting's least); people choose 5 minutes and up. */
const SHORT_INTERVAL_MINUTES = 0.1;

/** Stands in for the browser's Notification (granted), recording each one the page makes. */
const NOTIFICATION_STUB = `(() => {
  window.__notifications = [];
  class Recorded {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { window.__notifications.push({ title, body: options && options.body }); }
  }
  Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
})();`;

const notifications = () => page.evaluate<Array<{ title: string; body: string }>>('window.__notifications');
const titleRef = () => `${svc.url}/catalog/titles/movies/${TITLE_ID}`;
const alertsButton = () => frameShown(page).getByRole('button', { name: /^Alerts/ });

/** The stand-in Notification in place before the app's own scripts, on a signed-in page of the app. */
async function watchNotifications(): Promise<void> {
  await view.context.addInitScript(NOTIFICATION_STUB);
  await page.reload();
  await frameShown(page).waitFor();
}

/** The app's page, signed in, with the stand-in Notification in place. */
async function openWatched(): Promise<void> {
  view = await openSignedIn(browser, app);
  page = view.page;
  await watchNotifications();
}

/** Waits (past the poll interval) for the sidebar's Alerts button to say `count` unread in its accessible name. */
async function untilUnread(count: number): Promise<void> {
  const unread = new RegExp(`^Alerts\\s*,\\s*${count} unread$`);
  await expect
    .poll(() => frameShown(page).getByRole('button', { name: unread }).count(), { timeout: 60_000, interval: 500 })
    .toBe(1);
}

beforeAll(async () => {
  ({ svc, browser, subscriber, app, view, page } = await startAppOnService({
    // Every check reads each queued title at the consumer's pace: the demo's forty made each take seconds.
    emptyQueues: true,
    // One title ahead (so a released title can be moved to the top), then ours, not yet released:
    // it goes to the saved part of the queue.
    before: async (service, demo) => {
      const ref = `${service.url}/catalog/titles/movies/${TITLE_ID}`;
      await demo.add(otherStreamingRefs(service, [TITLE_ID])[0]!);
      await service.setAvailability(TITLE_ID, ['--from', '2035-01-01', '--until', 'never']);
      await demo.add(ref);
      expect(await demo.saved()).toContain(ref);
    },
    app: { userDataDir, watchAlerts: true },
  }));
  await watchNotifications();
}, 240_000);

afterAll(async () => {
  await stopAppOnService({ view, app, browser, svc });
  rmSync(userDataDir, { recursive: true, force: true });
}, 60_000);

let name = '';
/** The alerts before the release (the demo subscriber's other queued titles may have some): read, and kept to compare. */
let before: string[] = [];

test('a saved title released with the operator command: one alert on the screen and one notification, within the poll interval', async () => {
  await apiCall(app, 'alerts.setSettings', { intervalMinutes: SHORT_INTERVAL_MINUTES });
  // The watcher has seen the title waiting (a check on start, and this one).
  await apiCall(app, 'alerts.check', {});
  before = (await apiCall(app, 'alerts.markRead', {})).alerts.map((a) => a.id);
  const notesBefore = (await notifications()).length;

  const printed = await svc.setAvailability(TITLE_ID, ['--from', 'now', '--until', 'never']);
  expect(printed).toMatch(
    new RegExp(`\\(${TITLE_ID}\\): instant from .* until further notice; catalog generation \\d+`),
  );

  // No check is asked for: the poll finds it.
  // The unread count is in the sidebar button's accessible name.
  await untilUnread(1);
  await expect.poll(async () => (await notifications()).length, { timeout: 10_000 }).toBe(notesBefore + 1);
  const note = (await notifications()).at(-1);
  expect(note!.title).toBe('Now available');
  expect(note!.body).toMatch(/ is now available to watch instantly\.$/);

  await alertsButton().click();
  await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  const rows = page.locator('li.alert-row');
  await expect.poll(() => rows.count()).toBe(before.length + 1);
  // Newest first: the new one leads, unread.
  expect(await rows.first().getAttribute('data-kind')).toBe('available');
  expect(await rows.first().getAttribute('class')).toBe('alert-row unread');
  name = note!.body.replace(/ is now available to watch instantly\.$/, '');
  await expect.poll(() => rows.first().textContent()).toContain(`${name} is now available to watch instantly.`);
  // Play is offered once the title's states say it streams now.
  await page.getByRole('button', { name: `Play: ${name}`, exact: true }).waitFor({ timeout: 30_000 });
  await shot(page, 'alerts');
  await expectNoSeriousAxe(page, 'the Alerts screen');

  // The service says the title can be had now: it answers it as available in the queue.
  const entry = (await subscriber.entries()).find((e) => e.ref === titleRef());
  expect(entry).toBeDefined();
  const fresh = (await apiCall(app, 'alerts.list', {})).alerts.filter((a) => !before.includes(a.id));
  expect(fresh.map((a) => [a.kind, a.ref])).toEqual([['available', titleRef()]]);
});

test('keyboard: the alert is marked read with Tab and Enter, and the count leaves the sidebar', async () => {
  const markRead = page.getByRole('button', { name: `Mark read: ${name}` });
  await page.getByRole('button', { name: `Play: ${name}` }).focus();
  await page.keyboard.press('Tab');
  expect(
    await markRead.evaluate((el, active) => el === active, await page.evaluateHandle('document.activeElement')),
  ).toBe(true);
  await page.keyboard.press('Enter');
  await expect.poll(() => alertsButton().textContent()).toBe('Alerts');
  expect((await apiCall(app, 'alerts.list', {})).unread).toBe(0);
  await shot(page, 'alerts-read');
  await expectNoSeriousAxe(page, 'the Alerts screen, all read');
});

test('after a restart of the app: the alert is kept, and none is told again', async () => {
  await view.close();
  await app.stop();
  app = await startApp({
    service: serviceForApp(svc),
    userDataDir,
    watchAlerts: true,
  });
  await openWatched();
  // A check on start, one asked for, and polls: each sees the title available, as before the restart.
  await apiCall(app, 'alerts.check', {});
  const checked = Date.now();
  await expect
    .poll(() => Date.now() - checked > SHORT_INTERVAL_MINUTES * 60_000 * 2, { timeout: 30_000, interval: 1000 })
    .toBe(true);
  await apiCall(app, 'alerts.check', {});
  expect(await notifications()).toEqual([]);
  const list = await apiCall(app, 'alerts.list', {});
  expect(list.alerts.filter((a) => !before.includes(a.id)).map((a) => [a.kind, a.ref, a.read])).toEqual([
    ['available', titleRef(), true],
  ]);
  expect(list.alerts).toHaveLength(before.length + 1);
  await alertsButton().click();
  await expect.poll(() => page.locator('li.alert-row').count()).toBe(before.length + 1);
});

test('notifications off with the one switch in Settings: the next alert shows in the app, with no notification', async () => {
  await frameShown(page).getByRole('button', { name: 'Settings' }).click();
  const toggle = page.getByRole('checkbox', { name: 'Desktop notifications' });
  expect(await toggle.isChecked()).toBe(true);
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await apiCall(app, 'alerts.settings', {})).notifications).toBe(false);
  await page.getByRole('heading', { level: 2, name: 'Alerts' }).scrollIntoViewIfNeeded();
  await shot(page, 'alerts-settings');
  await expectNoSeriousAxe(page, 'Settings with the alert settings');

  const notesBefore = (await notifications()).length;
  const known = (await apiCall(app, 'alerts.list', {})).alerts.map((a) => a.id);
  const until = new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await svc.setAvailability(TITLE_ID, ['--from', '2020-01-01', '--until', until]);
  await untilUnread(1);
  const fresh = (await apiCall(app, 'alerts.list', {})).alerts.filter((a) => !known.includes(a.id));
  expect(fresh.map((a) => [a.kind, a.ref, a.until])).toEqual([['leaving', titleRef(), Date.parse(until) / 1000]]);
  expect(await notifications()).toHaveLength(notesBefore);
  // A title leaving offers Move to top only while the queue holds it in its available part (a
  // released title the service still keeps under Saved cannot be moved); the list is then marked read.
  await alertsButton().click();
  const entry = (await apiCall(app, 'queue.list', { kind: 'instant' })).items.find((i) => i.ref === titleRef());
  const movable = entry?.position !== null && entry?.position !== undefined && entry.position > 1;
  await expect
    .poll(() => page.getByRole('button', { name: `Move to top: ${name}`, exact: true }).count(), { timeout: 30_000 })
    .toBe(movable ? 1 : 0);
  const leavingRow = page.locator('li.alert-row[data-kind="leaving"]', { hasText: name });
  expect(await leavingRow.getByRole('button', { name: `Play: ${name}`, exact: true }).count()).toBe(1);
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect.poll(() => alertsButton().textContent()).toBe('Alerts');
});
