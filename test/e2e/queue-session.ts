import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright';
import { expect } from 'vitest';
import {
  approveOnServicePage,
  frameShown,
  launchBrowser,
  openApp,
  serviceForApp,
  startApp,
  startTestService,
  type AppPage,
} from './helpers/index.ts';
import { anotherDevice, type Subscriber } from './queue-subscriber.ts';
import { streamingMovieRefs } from './demo-titles.ts';
import type { AppOnService } from './app-on-service.ts';

/**
 * One queue scenario: a service the test controls, the demo subscriber's instant queue filled
 * with `size` streaming movies through the service's API, and the app (web host + Chromium, its
 * built-in profile pointed at that service by MARQUEE_SERVICE_URL, `appEnv` added to its environment) signed in and showing that queue. The user-data folder is the test's, so the app can be
 * restarted on it (the offline outbox survives).
 */
export interface QueueSession extends AppOnService {
  userDataDir: string;
  /** Stops the app, runs `meanwhile`, and starts the app again on the same settings, showing the queue. */
  restartApp(meanwhile?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startQueueSession(
  size: number,
  serviceArgs: string[] = [],
  appEnv: Record<string, string> = {},
): Promise<QueueSession> {
  const [svc, browser] = await Promise.all([startTestService(serviceArgs), launchBrowser()]);
  const subscriber = await anotherDevice(svc);
  await subscriber.clear('instant');
  await subscriber.clear('disc');
  await subscriber.fill(streamingMovieRefs(svc, size));
  const userDataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-queue-'));
  const service = serviceForApp(svc);
  const session: QueueSession = {
    svc,
    browser,
    subscriber,
    userDataDir,
    app: await startApp({ service, userDataDir, env: appEnv }),
    view: undefined as unknown as AppPage,
    page: undefined as unknown as Page,
    async restartApp(meanwhile) {
      await session.view.close();
      await session.app.stop();
      await meanwhile?.();
      session.app = await startApp({ service, userDataDir, env: appEnv });
      session.view = await openApp(browser, session.app);
      session.page = session.view.page;
      await frameShown(session.page).waitFor({ timeout: 30_000 });
      await showQueue(session.page);
    },
    async close() {
      await session.view?.close().catch(() => undefined);
      await session.app.stop();
      await browser.close();
      await svc.dispose();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  session.view = await openApp(browser, session.app);
  session.page = session.view.page;
  await signIn(session.view, svc.demo);
  await showQueue(session.page);
  return session;
}

/**
 * Signs the app in like a person: Sign in, the address it shows opened in another tab, the
 * service's page approved; when that page answers with a code (no loopback callback), the code
 * typed into the app.
 */
async function signIn(view: AppPage, demo: { login: string; password: string }): Promise<void> {
  const { page, context } = view;
  await page.getByRole('button', { name: 'Sign in' }).click();
  const link = page.getByRole('link', { name: /^http/ });
  await link.waitFor({ timeout: 30_000 });
  const tab = await context.newPage();
  let pin: string | null;
  try {
    await tab.goto((await link.getAttribute('href'))!);
    pin = await approveOnServicePage(tab, demo);
  } finally {
    await tab.close();
  }
  if (pin) {
    await page.getByLabel('Got a code instead? Enter it here').fill(pin);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await frameShown(page).waitFor({ timeout: 60_000 });
}

/** Opens the instant queue from the sidebar and waits for its rows. */
export async function showQueue(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Instant Queue/ })
    .click();
  await queueList(page).getByRole('listitem').first().waitFor({ timeout: 30_000 });
}

/**
 * Scrolls the content column (the queue's scroll) back to the top, where the first rows are
 * rendered: a test that clicked something further down left the page scrolled there.
 */
export async function scrollQueueToTop(page: Page): Promise<void> {
  await page.locator('#content').evaluate((el) => el.scrollTo(0, 0));
}

export function queueList(page: Page): Locator {
  return page.getByRole('list', { name: 'Instant queue' });
}

export function row(page: Page, ref: string): Locator {
  return page.locator(`[role="listitem"] [data-ref="${ref}"]`);
}

export function handle(page: Page, ref: string): Locator {
  return row(page, ref).locator('.queue-handle');
}

/** Waits until the service's instant queue is `expected` (the app writes in the background). */
export async function expectServiceOrder(
  subscriber: Subscriber,
  expected: readonly string[],
  timeout = 30_000,
): Promise<void> {
  await expect.poll(() => subscriber.order(), { timeout, interval: 250 }).toEqual(expected);
}

/** The live region that announces keyboard moves ("Picked up …", "… is over position 3 of 40.", "Moved …"). */
export function announcer(page: Page): Locator {
  return page.locator('#queue-announcements');
}

/**
 * Moves a title with the handle's keys: Space to pick up, arrows, Space to drop. Each key waits
 * for the announcement of the one before, as a person hears it before going on (the app does not
 * need the pause: see queue-week.test.ts).
 */
export async function keyboardMove(page: Page, ref: string, from: number, steps: number): Promise<void> {
  const live = announcer(page);
  await handle(page, ref).focus();
  await page.keyboard.press('Space');
  await expect.poll(() => live.textContent()).toMatch(new RegExp(`^(Picked up|.* is over position ${from} of)`));
  const key = steps < 0 ? 'ArrowUp' : 'ArrowDown';
  for (let i = 1; i <= Math.abs(steps); i++) {
    await page.keyboard.press(key);
    await expect
      .poll(() => live.textContent())
      .toMatch(new RegExp(`is over position ${from + Math.sign(steps) * i} of`));
  }
  await page.keyboard.press('Space');
  await expect.poll(() => live.textContent()).toMatch(/^Moved /);
}

/** Picks a row up by its handle with the mouse and moves it over `targetRef`'s row; returns a drop. */
export async function mouseDragOver(page: Page, ref: string, targetRef: string): Promise<() => Promise<void>> {
  const from = (await handle(page, ref).boundingBox())!;
  const to = (await row(page, targetRef).boundingBox())!;
  const startX = from.x + from.width / 2;
  const startY = from.y + from.height / 2;
  const rowCentre = (await row(page, ref).boundingBox())!;
  const dy = to.y + to.height / 2 - (rowCentre.y + rowCentre.height / 2);
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  await page.mouse.move(startX, startY + Math.sign(dy) * 8, { steps: 4 });
  await page.mouse.move(startX, startY + dy, { steps: 20 });
  await page.locator('.queue-overlay').waitFor();
  return async () => {
    await page.mouse.up();
    await page.locator('.queue-overlay').waitFor({ state: 'detached' });
  };
}
