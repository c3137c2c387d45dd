import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { expectNoSeriousAxe, frameShown, launchBrowser, openApp, shot, signIn, startApp, type RunningApp } from './helpers/index.ts';

/**
 * The app's frame end to end, as a user runs it: `npm start` without Electron (the web host and its
 * embedded service), the printed address in a real headless Chromium, sign-in through the
 * service's own page.
 */
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  const stopped = await app?.stop();
  expect(stopped?.code).toBe(0);
  expect(stopped?.left, 'processes left running after SIGTERM').toEqual([]);
}, 30_000);

test('first run shows the sign-in card; signing in through the service page opens the frame', async () => {
  const appPage = await openApp(browser, app);
  const { page } = appPage;
  expect(page.url()).toBe(`${app.hostUrl}/`); // the token left the address bar
  await page.getByRole('heading', { name: 'Marquee' }).waitFor();
  await shot(page, 'sign-in');
  await expectNoSeriousAxe(page, 'sign-in');
  await signIn(appPage, app);
  await expect.poll(() => page.locator('.account-name').textContent()).toMatch(/\S/);
  await shot(page, 'frame');
  await expectNoSeriousAxe(page, 'frame');
  expect(appPage.problems).toEqual([]);
  await appPage.close();
});

test('a page without the launch token cannot use the API, and says how to get in', async () => {
  const context = await browser.newContext(); // fresh: empty sessionStorage
  try {
    const bare = await context.newPage();
    const refused: number[] = [];
    bare.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) refused.push(r.status());
    });
    await bare.goto(`${app.hostUrl}/`);
    const alert = bare.getByRole('alert');
    await alert.first().waitFor();
    expect(await alert.first().textContent()).toMatch(/Missing or wrong token.*Open the address npm start printed/);
    expect(await frameShown(bare).count()).toBe(0);
    expect(await bare.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s) => s === 401)).toBe(true);
  } finally {
    await context.close();
  }
});
