import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import {
  apiCall,
  frameShown,
  launchBrowser,
  openApp,
  operator,
  serviceForApp,
  shot,
  signIn,
  startApp,
  startTestService,
  type AppPage,
  type RunningApp,
  type TestService,
} from './helpers/index.ts';
import { queueList, row, showQueue } from './queue-session.ts';
import { anotherDevice, type Subscriber } from './queue-subscriber.ts';
import { streamingMovieRefs } from './demo-titles.ts';
import { stopAppOnService } from './app-on-service.ts';

/**
 * Nothing crosses accounts: the demo subscriber (A) edits the instant queue while the service is
 * down (so the edit waits, marked Pending) and signs out; another subscriber (B) signs in on the
 * same app. B's Undo has nothing to undo (and Ctrl+Z changes nothing on the service), B's queue
 * shows no Pending mark and the status line no waiting edit, and none of A's alerts is B's. Both
 * queues are read back from the service over signed HTTP.
 */
vi.setConfig({ testTimeout: 240_000 });

/** A movie of the demo catalog A has saved, released during the test so A has an alert of it. */
const RELEASED_ID = 60_000_010;
const B = { login: 'bea-other', password: 'another-subscriber-1' };

let svc: TestService;
let browser: Browser;
let a: Subscriber;
let b: Subscriber;
let app: RunningApp;
let view: AppPage;
let page: Page;

/** `users add` on the service's data (the operator's command, while it runs). */
async function addSubscriber(dataDir: string, who: typeof B): Promise<void> {
  await operator(dataDir, [
    'users',
    'add',
    '--login',
    who.login,
    '--password',
    who.password,
    '--first',
    'Bea',
    '--last',
    'Other',
  ]);
}

beforeAll(async () => {
  [svc, browser] = await Promise.all([startTestService(), launchBrowser()]);
  await addSubscriber(svc.dataDir, B);
  a = await anotherDevice(svc);
  b = await anotherDevice(svc, B.login);
  await b.fill(streamingMovieRefs(svc, 6));
  await svc.setAvailability(RELEASED_ID, ['--from', '2035-01-01', '--until', 'never']);
  await a.add(`${svc.url}/catalog/titles/movies/${RELEASED_ID}`);
  app = await startApp({ service: serviceForApp(svc) });
  view = await openApp(browser, app);
  page = view.page;
}, 240_000);

afterAll(() => stopAppOnService({ view, app, browser, svc }), 60_000);

/** The queue header's Undo (the toast after an edit has one too). */
const undoButton = () => page.locator('.queue-history-buttons').getByRole('button', { name: 'Undo' });
const pendingRows = () => page.locator('.queue-slot.pending');

test('after A edits and signs out, B signs in: no Undo of A’s edit, no Pending mark, none of A’s alerts', async () => {
  // A, signed in, with an alert: the saved title seen waiting, then released.
  await signIn(view, app);
  await apiCall(app, 'alerts.check', {});
  await svc.setAvailability(RELEASED_ID, ['--from', 'now', '--until', 'never']);
  const alertsOfA = (await apiCall(app, 'alerts.check', {})).alerts;
  expect(alertsOfA.length).toBeGreaterThan(0);

  // A moves a title to the top while the service is down: the edit waits, marked Pending, and Undo is offered.
  await showQueue(page);
  const orderOfA = await a.order();
  await svc.stop();
  try {
    await row(page, orderOfA[4]!)
      .getByRole('button', { name: /^Move .* to top$/ })
      .click();
    await page
      .getByText(/^1 edits? waiting to be sent/)
      .first()
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => pendingRows().count()).toBe(1);
    await expect.poll(() => undoButton().getAttribute('aria-disabled')).toBe('false');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 60_000 });
  } finally {
    await svc.start();
  }

  // B signs in on the same app.
  const orderOfB = await b.order();
  await signIn(view, { ...app, demo: B });
  await page.getByText('Bea Other').waitFor();
  await showQueue(page);
  await expect.poll(() => queueList(page).getByRole('listitem').count()).toBe(orderOfB.length);
  expect(await undoButton().getAttribute('aria-disabled')).toBe('true');
  expect(await pendingRows().count()).toBe(0);
  expect(await page.getByText(/edits? waiting to be sent/).count()).toBe(0);
  await shot(page, 'accounts-b-queue');

  // Undo, by the button and by the keyboard, changes nothing; B's own next edit is the first the service sees.
  await undoButton().click({ force: true }); // aria-disabled: a person can still press it
  await page.keyboard.press('ControlOrMeta+z');
  await row(page, orderOfB[3]!)
    .getByRole('button', { name: /^Move .* to top$/ })
    .click();
  const expected = [orderOfB[3]!, ...orderOfB.filter((ref) => ref !== orderOfB[3])];
  await expect.poll(() => b.order(), { timeout: 30_000, interval: 250 }).toEqual(expected);

  // None of A's alerts is B's, on the screen or in the core.
  const alertsOfB = (await apiCall(app, 'alerts.list', {})).alerts;
  const idsOfA = new Set(alertsOfA.map((x) => x.id));
  expect(alertsOfB.filter((x) => idsOfA.has(x.id))).toEqual([]);
  await frameShown(page)
    .getByRole('button', { name: /^Alerts/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  expect(await page.locator('li.alert-row').count()).toBe(alertsOfB.length);
  expect(view.problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
});
