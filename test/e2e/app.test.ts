import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  apiCall,
  approveOnServicePage,
  expectNoSeriousAxe,
  frameShown,
  goTo,
  launchBrowser,
  openApp,
  openSignedIn,
  shot,
  startApp,
  type RunningApp,
} from './helpers/index.ts';

/**
 * The app's frame and the subscriber's own screens end to end, as a user runs it: `npm start`
 * without Electron (the web host and its embedded service, no browser to open), the printed
 * address in a real headless Chromium, sign-in through the service's own page. Each test sets up
 * the sign-in state it needs.
 */
/** Generous: the machine these run on may be busy; nothing here waits longer than it must. */
const TEST_MS = 120_000;
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

async function signedOut(): Promise<void> {
  await apiCall(app, 'auth.cancel', {});
  await apiCall(app, 'auth.signOut', {});
}

test(
  'first run with no browser: the card shows the sign-in address as a link, and the code from the service page signs in',
  async () => {
    await signedOut();
    const appPage = await openApp(browser, app);
    const { page } = appPage;
    expect(page.url()).toBe(`${app.hostUrl}/`); // the token left the address bar
    await page.getByRole('heading', { name: 'Marquee' }).waitFor();
    await shot(page, 'sign-in');
    await expectNoSeriousAxe(page, 'sign-in');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Finish signing in in your browser').waitFor();
    const link = page.getByRole('link', { name: /^http/ });
    await link.waitFor();
    const loginUrl = (await link.getAttribute('href'))!;
    expect(new URL(loginUrl).origin).toBe(app.serviceOrigin);
    await page.getByRole('button', { name: 'Copy sign-in address' }).waitFor();
    const pinField = page.getByLabel('Got a code instead? Enter it here');
    await pinField.waitFor();
    await shot(page, 'sign-in-waiting');
    await expectNoSeriousAxe(page, 'sign-in waiting');

    const servicePage = await appPage.context.newPage();
    await servicePage.goto(loginUrl);
    const pin = await approveOnServicePage(servicePage, app.demo);
    await servicePage.close();
    expect(pin).toMatch(/\S/);
    await pinField.fill(pin!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await frameShown(page).waitFor();
    const user = (await apiCall(app, 'auth.status', {})).user!;
    await expect.poll(() => page.locator('.account-name').textContent()).toBe(`${user.firstName} ${user.lastName}`);
    await shot(page, 'frame');
    expect(appPage.problems).toEqual([]);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'Cancel stops waiting and a wrong code is refused in words',
  async () => {
    await signedOut();
    const appPage = await openApp(browser, app);
    const { page } = appPage;
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /^http/ }).waitFor();
    await page.getByLabel('Got a code instead? Enter it here').fill('WRONG-CODE');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code didn’t work' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: /^http/ }).count()).toBe(0);
    expect((await apiCall(app, 'auth.status', {})).pending).toBeNull();
    expect(await page.getByRole('alert').count()).toBe(0); // a cancelled sign-in is not an error
    await appPage.close();
  },
  TEST_MS,
);

test(
  'rating a title changes the recommendations, and Ratings lists it with stars to change',
  async () => {
    const appPage = await openSignedIn(browser, app);
    const { page } = appPage;
    await goTo(page, 'Recommendations');
    const recs = page.getByRole('list', { name: 'Recommended titles' });
    await recs.getByRole('listitem').first().waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /\d+ recommendations?/ })
      .waitFor();
    const before = await recs.locator('.title-card-name').allTextContents();
    await shot(page, 'recommendations');
    await expectNoSeriousAxe(page, 'recommendations');

    // Rate the top recommendation in its title panel.
    const top = before[0]!;
    await recs.locator('.title-card').first().click();
    const panel = page.getByRole('complementary', { name: 'Title details' });
    await panel.getByRole('button', { name: 'Rate 2 stars' }).click();
    await panel.getByRole('button', { name: 'Rate 2 stars', pressed: true }).waitFor();
    await page.keyboard.press('Escape');

    await goTo(page, 'Ratings');
    const rated = page.getByRole('listitem').filter({ hasText: top });
    await rated.getByRole('button', { name: 'Rate 2 stars', pressed: true }).waitFor();
    await rated.getByRole('button', { name: 'Rate 5 stars' }).click();
    await rated.getByRole('button', { name: 'Rate 5 stars', pressed: true }).waitFor();
    await shot(page, 'ratings');
    await expectNoSeriousAxe(page, 'ratings');
    expect((await apiCall(app, 'ratings.list', {})).items.find((r) => r.title.title === top)?.userRating).toBe(5);

    await goTo(page, 'Recommendations');
    await expect.poll(() => recs.locator('.title-card-name').allTextContents()).not.toEqual(before);
    expect(appPage.problems).toEqual([]);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'history lists the demo subscriber’s rentals with their dates, filtered by view',
  async () => {
    const appPage = await openSignedIn(browser, app);
    const { page } = appPage;
    await goTo(page, 'History');
    const table = page.getByRole('table', { name: 'Rental history' });
    await table.locator('tbody tr').first().waitFor();
    const total = (await apiCall(app, 'history.list', { max: 1 })).total;
    expect(total).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: `${total.toLocaleString('en')} rental` })
      .waitFor();
    await shot(page, 'history');
    await expectNoSeriousAxe(page, 'history');

    await page.getByRole('radiogroup', { name: 'Show' }).getByRole('radio', { name: 'Watched' }).click();
    const watched = (await apiCall(app, 'history.list', { view: 'watched', max: 1 })).total;
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${watched.toLocaleString('en')} rentals?$`) })
      .waitFor();
    const watchedDates = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(watchedDates.length).toBeGreaterThan(0);
    expect(watchedDates.every((d) => d !== '—')).toBe(true);
    expect(appPage.problems).toEqual([]);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'Settings refuses a service that does not answer, in words, and keeps the built-in one',
  async () => {
    const appPage = await openSignedIn(browser, app);
    const { page } = appPage;
    await goTo(page, 'Settings');
    await shot(page, 'settings');
    await expectNoSeriousAxe(page, 'settings');
    await page.getByRole('button', { name: 'Add a service…' }).click();
    await page.getByLabel('Name').fill('Nowhere');
    await page.getByLabel('Address').fill('http://127.0.0.1:9');
    await page.getByLabel('Consumer key').fill('key');
    await page.getByLabel('Consumer secret').fill('secret');
    await page.getByRole('button', { name: 'Test and save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Couldn’t add this service.' });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/127\.0\.0\.1:9.*check the address/);
    await shot(page, 'settings-refused');
    const { profiles } = await apiCall(app, 'profiles.list', {});
    expect(profiles.map((p) => p.baseUrl)).not.toContain('http://127.0.0.1:9');
    expect(await page.getByRole('group', { name: 'Service to use' }).getByRole('radio').count()).toBe(profiles.length);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'the keyboard alone: shortcuts, the sidebar, opening and closing a title, back',
  async () => {
    const appPage = await openSignedIn(browser, app);
    const { page } = appPage;
    await page.keyboard.press('g');
    await page.keyboard.press('q');
    await page.getByRole('heading', { level: 1, name: /instant queue/i }).waitFor();
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('search-input');
    await page.keyboard.press('Escape');
    // Tab from the top of the page to "Recommendations" in the sidebar, then into the grid.
    await page.evaluate('document.activeElement?.blur()');
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement?.textContent')) === 'Recommendations') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Recommendations' }).waitFor();
    const firstCard = page.getByRole('list', { name: 'Recommended titles' }).locator('.title-card').first();
    await firstCard.waitFor();
    await firstCard.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Title details' });
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.keyboard.press('Alt+ArrowLeft'); // back: the title again
    await panel.waitFor();
    await page.keyboard.press('Alt+ArrowRight'); // forward: closed again
    await panel.waitFor({ state: 'detached' });
    expect(appPage.problems).toEqual([]);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'Sign out returns to the sign-in card and the app forgets the account',
  async () => {
    const appPage = await openSignedIn(browser, app);
    const { page } = appPage;
    await frameShown(page).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await frameShown(page).count()).toBe(0);
    const status = await apiCall(app, 'auth.status', {});
    expect(status.signedIn).toBe(false);
    expect(status.user).toBeNull();
    await appPage.close();
  },
  TEST_MS,
);

test(
  'a page without the launch token cannot use the API, and says how to get in',
  async () => {
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
  },
  TEST_MS,
);
