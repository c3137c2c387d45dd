import type { Browser, Locator, Page, Route } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  approveOnServicePage,
  expectNoSeriousAxe,
  frameShown,
  launchBrowser,
  openApp,
  shot,
  startApp,
  type AppPage,
  type RunningApp,
} from './helpers/index.ts';

/**
 * The catalog screens end to end, as a user runs them: `npm start` without Electron (the web host
 * and its embedded service, which logs its requests: MARQUEE_LOG_LEVEL=info), a real headless Chromium,
 * sign-in on the service's own page; then search, a title, a person, browse, the queue, sign out.
 */
let app: RunningApp;
let browser: Browser;
let appPage: AppPage;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ env: { MARQUEE_LOG_LEVEL: 'info' } }), launchBrowser()]);
  appPage = await openApp(browser, app);
  page = appPage.page;
  page.setDefaultTimeout(20_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  const stopped = await app?.stop();
  expect(stopped?.code).toBe(0);
}, 30_000);

/** Waits for an observable value (the machine may be busy: patience is not a timed assertion). */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 20_000, ...options });

/** Status codes the embedded service answered for GETs of `path` (with any query), from its request log. */
function answered(path: string, from: number): number[] {
  const codes: number[] = [];
  for (const line of app.output.text.slice(from).split('\n')) {
    const json = /^(?:\[service\] )?(\{"level".*\})\s*$/.exec(line)?.[1]; // a chunk of several lines is prefixed once
    if (!json) continue;
    // One line per request (service/http/observe.ts): its method, URL (OAuth's parameters left out) and status.
    const entry = JSON.parse(json) as { msg?: string; method?: string; url?: string; status?: number };
    if (entry.msg !== 'request' || entry.method !== 'GET' || entry.status === undefined) continue;
    if (entry.url === path || entry.url?.startsWith(`${path}?`)) codes.push(entry.status);
  }
  return codes;
}

/**
 * Signs in as a user without a browser the app could open: Sign in, the address the app shows
 * opened in another tab, the service's page approved, and the PIN it shows typed into the app
 * (or, for a loopback sign-in, nothing more to do).
 */
async function signInWithLink(): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  const link = page.getByRole('link', { name: /^http/ });
  const signInPage = await appPage.context.newPage();
  try {
    await signInPage.goto((await link.getAttribute('href'))!);
    const pin = await approveOnServicePage(signInPage, app.demo);
    if (pin) {
      await page.getByRole('textbox').fill(pin);
      await page.getByRole('button', { name: 'Continue' }).click();
    }
  } finally {
    await signInPage.close();
  }
  await frameShown(page).waitFor();
}

/** The path of the first title fetched with its expansions after `from` (the title's ref, as the service logged it). */
function expandedTitlePath(from: number): string {
  const url = /"method":"GET","url":"([^"?]+)\?v=1\.5&expand=/.exec(app.output.text.slice(from))?.[1];
  if (!url) throw new Error('the service logged no expanded title request');
  return url;
}

/** The number beside a queue in the sidebar. */
async function queueCount(name: 'Instant Queue' | 'Disc Queue'): Promise<number> {
  const label = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .textContent();
  return Number(/(\d+)\s*$/.exec(label ?? '')?.[1] ?? NaN);
}

/** Holds the app's calls of one operation (the web host's POST /api/<name>) until released. */
async function holdOperation(name: string): Promise<{ count(): number; release(): Promise<void> }> {
  const held: Route[] = [];
  const pattern = `**/api/${name}`;
  await page.route(pattern, (route) => void held.push(route));
  return {
    count: () => held.length,
    async release() {
      for (const route of held.splice(0)) await route.continue();
      await page.unroute(pattern);
    },
  };
}

/** Whether an element's top is within the window, or the margin below it within which the app counts a row as seen. */
async function nearView(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.y < page.viewportSize()!.height + 200;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const searchBox = () => page.getByRole('combobox', { name: 'Search' });
const panelHeading = (name: string) =>
  page.getByRole('complementary').getByRole('heading', { level: 2, name, exact: true });
const resultCount = (text: RegExp) => page.getByRole('status').filter({ hasText: text });

/** Presses Tab until the focused control's name matches (keyboard only), failing after `max` presses. */
async function tabTo(name: RegExp, max = 250, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const focused = await page.evaluate(
      '(() => { const el = document.activeElement; return el ? (el.getAttribute("aria-label") || el.innerText || "").replace(/\\s+/g, " ").trim() : ""; })()',
    );
    if (name.test(String(focused))) return;
  }
  throw new Error(`no control named ${name} within ${max} presses of ${key}`);
}

test('search with autocomplete, page 2, a title and its expansions, a person, back, browse, add to the queue', async () => {
  await signInWithLink();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Search' }).click();

  // Autocomplete as you type: arrows and Enter take a suggestion.
  await searchBox().pressSequentially('matr');
  const suggestion = page
    .getByRole('listbox', { name: 'Suggestions' })
    .getByRole('option', { name: 'The Matrix', exact: true });
  await suggestion.waitFor();
  await searchBox().press('ArrowDown');
  expect(await searchBox().getAttribute('aria-activedescendant')).toBe(
    await page.getByRole('option').first().getAttribute('id'),
  );
  await searchBox().press('Enter');
  expect(await searchBox().inputValue()).toBe('The Matrix');
  expect(await searchBox().getAttribute('aria-expanded')).toBe('false');
  await page
    .getByRole('list', { name: 'Titles matching The Matrix' })
    .getByRole('button', { name: /^The Matrix 1999 · Movie/ })
    .waitFor();

  // "41 titles" lets you reach all 41: the first page, then page 2 by scrolling.
  await searchBox().fill('love');
  await resultCount(/^41 titles/).waitFor();
  const loveTitles = page.getByRole('list', { name: 'Titles matching love' }).getByRole('listitem');
  await poll(() => loveTitles.count()).toBeGreaterThanOrEqual(24);
  expect(await loveTitles.count()).toBeLessThan(41);
  await loveTitles.last().scrollIntoViewIfNeeded(); // the end of the grid in sight loads page 2
  await poll(() => loveTitles.count()).toBe(41);
  expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
  expect(await loveTitles.first().textContent()).toMatch(/\d{4} · (Movie|Series)/); // year and type on each result

  // People beside titles: "Kubrick" finds Kubrick.
  await searchBox().fill('kubrick');
  await page.getByRole('list', { name: 'People' }).getByRole('button', { name: 'Stanley Kubrick' }).waitFor();
  await searchBox().fill('matrix');
  const matrix = page.getByRole('button', { name: /^The Matrix 1999/ });
  await matrix.waitFor();
  await searchBox().press('Escape'); // the suggestions close
  await poll(() => page.getByRole('listbox', { name: 'Suggestions' }).isVisible()).toBe(false);
  await shot(page, 'search');
  await expectNoSeriousAxe(page, 'search');

  // The title panel: one expanded request's worth of detail.
  const beforeOpen = app.output.text.length;
  const similarsCalls = await holdOperation('catalog.similars');
  await matrix.click();
  await panelHeading('The Matrix').waitFor();
  const panel = page.getByRole('complementary', { name: 'Title details' });
  await panel.getByRole('list', { name: 'Cast' }).getByRole('button').first().waitFor();
  expect(await panel.getByRole('list', { name: 'Directors' }).getByRole('button').allTextContents()).toContain(
    'The Wachowskis',
  );
  expect(await panel.getByRole('list', { name: 'Similar titles' }).getByRole('button').count()).toBeGreaterThan(0);
  expect(await panel.locator('dt').allTextContents()).toEqual(
    expect.arrayContaining(['Available', 'Picture', 'Languages and audio']),
  );
  expect(await panel.getByRole('img', { name: /^Average rating: 4\.4 out of 5$/ }).count()).toBe(1);
  expect(await panel.getByRole('group', { name: 'Your rating' }).getByRole('button').count()).toBeGreaterThanOrEqual(6);
  // The synopsis is text and person buttons only (the service's <a href> are not links out of the app).
  expect(await panel.locator('.synopsis a').count()).toBe(0);
  expect(await panel.locator('.synopsis').getByRole('button', { name: 'The Wachowskis' }).count()).toBe(1);
  await shot(page, 'title');
  await expectNoSeriousAxe(page, 'title');
  const matrixPath = expandedTitlePath(beforeOpen);

  // That was one request: the row names the similar titles at once; their box art is its own
  // request (catalog.similars), made once the row scrolls into view. Focus, names and size stay.
  expect(answered(matrixPath, beforeOpen)).toHaveLength(1);
  const similarsRow = panel.getByRole('list', { name: 'Similar titles' });
  const similarNames = await similarsRow
    .getByRole('button')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('title')));
  expect(similarNames.length).toBeGreaterThan(3);
  expect(similarNames.every((n) => n !== null && n !== '')).toBe(true);
  if (!(await nearView(similarsRow))) expect(similarsCalls.count()).toBe(0);
  await similarsRow.scrollIntoViewIfNeeded();
  await poll(() => similarsCalls.count()).toBe(1);
  const placeholderSize = await similarsRow.boundingBox();
  expect(await similarsRow.locator('img').count()).toBe(0);
  await shot(page, 'title-similars-waiting');
  await similarsCalls.release();
  await poll(() => similarsRow.locator('img').count()).toBe(similarNames.length);
  await poll(() => similarsRow.locator('img.loaded').count()).toBeGreaterThan(0);
  expect(
    await similarsRow.getByRole('button').evaluateAll((cards) => cards.map((c) => c.getAttribute('title'))),
  ).toEqual(similarNames);
  expect(Math.abs((await similarsRow.boundingBox())!.height - placeholderSize!.height)).toBeLessThanOrEqual(2);
  expect(await similarsRow.getByRole('button').first().textContent()).toMatch(/\d{4} · (Movie|Series)$/);
  expect(answered(`${matrixPath}/similars`, beforeOpen)).toEqual([200]);
  await shot(page, 'title-similars');
  await expectNoSeriousAxe(page, 'title-similars');

  // A person, from the synopsis; then back to the title, shown from the cache and revalidated (304).
  await panel.locator('.synopsis').getByRole('button', { name: 'The Wachowskis' }).click();
  await panelHeading('The Wachowskis').waitFor();
  await page
    .getByRole('list', { name: 'Titles with The Wachowskis' })
    .getByRole('button', { name: /^The Matrix 1999/ })
    .waitFor();
  await shot(page, 'person');
  await expectNoSeriousAxe(page, 'person');
  const beforeBack = app.output.text.length;
  await page.getByRole('button', { name: 'Back' }).click();
  await panelHeading('The Matrix').waitFor();
  await poll(() => answered(matrixPath, beforeBack), { timeout: 10_000 }).toContain(304);
  expect(answered(matrixPath, beforeBack)).not.toContain(200);

  // Browse a genre, filter it, scroll for more.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Browse' }).click();
  await page.getByRole('navigation', { name: 'Genres' }).getByRole('button', { name: 'Drama' }).click();
  await page.getByRole('heading', { name: 'Drama', level: 2 }).waitFor();
  const drama = page.getByRole('list', { name: 'Drama titles' }).getByRole('listitem');
  await drama.first().waitFor();
  /** The number in the list's "N titles" line. */
  const titlesShown = async () =>
    Number(
      /([\d,]+) titles/
        .exec(
          (await resultCount(/titles$/)
            .first()
            .textContent()) ?? '',
        )?.[1]
        ?.replace(/,/g, ''),
    );
  const allDrama = await titlesShown();
  expect(allDrama).toBeGreaterThan(24);
  await drama.last().scrollIntoViewIfNeeded();
  await poll(() => drama.count()).toBeGreaterThan(24);
  await page.getByRole('radiogroup', { name: 'Type' }).getByRole('radio', { name: 'Series' }).click();
  await poll(titlesShown).toBeLessThan(allDrama);
  expect(new Set((await drama.allTextContents()).map((t) => /· (\w+)$/.exec(t)?.[1]))).toEqual(new Set(['Series']));
  await shot(page, 'browse');
  await expectNoSeriousAxe(page, 'browse');

  // Add the title to the instant queue: the button shows its place, the sidebar's count changes.
  const before = await queueCount('Instant Queue');
  await searchScreenTitle('matrix', /^The Matrix 1999/);
  await panel.getByRole('button', { name: 'Add to queue', exact: true }).click();
  await panel.getByRole('button', { name: /^In queue · #\d+$/ }).waitFor();
  await poll(() => queueCount('Instant Queue')).toBe(before + 1);
  expect(appPage.problems).toEqual([]);
}, 240_000);

/** Opens a title from Search by mouse. */
async function searchScreenTitle(term: string, card: RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Search' }).click();
  await searchBox().fill(term);
  await page.getByRole('button', { name: card }).first().click();
  await page.getByRole('complementary', { name: 'Title details' }).waitFor();
}

test('the same with the keyboard alone: / to search, a suggestion, a title, remove it from the queue, a person, back, browse', async () => {
  await page.keyboard.press('Escape'); // closes the panel
  await poll(() => page.getByRole('complementary', { name: 'Title details' }).count()).toBe(0);
  await page.keyboard.press('/');
  await poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Search');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('matr');
  await page.getByRole('option', { name: 'The Matrix', exact: true }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.getByRole('list', { name: 'Titles matching The Matrix' }).waitFor();
  await tabTo(/^The Matrix 1999/);
  await page.keyboard.press('Enter');
  await panelHeading('The Matrix').waitFor();

  const before = await queueCount('Instant Queue');
  await tabTo(/^Remove from queue$/);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Add to queue', exact: true }).waitFor();
  await poll(() => queueCount('Instant Queue')).toBe(before - 1);

  await tabTo(/^Rate 4 stars$/, 250, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await poll(() => page.getByRole('button', { name: 'Rate 4 stars' }).getAttribute('aria-pressed')).toBe('true');
  await tabTo(/^Clear rating$/);
  await page.keyboard.press('Enter');
  await poll(() => page.getByRole('button', { name: 'Clear rating' }).count()).toBe(0);

  await tabTo(/^Wren Rookwood$/);
  await page.keyboard.press('Enter');
  await panelHeading('Wren Rookwood').waitFor();
  await page.keyboard.press('Alt+ArrowLeft');
  await panelHeading('The Matrix').waitFor();

  // A similar title by keyboard: its card keeps the focus while its box art arrives; Enter opens it.
  const similar = (await page
    .getByRole('list', { name: 'Similar titles' })
    .getByRole('button')
    .first()
    .getAttribute('title'))!;
  await tabTo(new RegExp(`^${escapeRegExp(similar)}`));
  await poll(() => page.getByRole('list', { name: 'Similar titles' }).locator('img.loaded').count()).toBeGreaterThan(0);
  expect(await page.evaluate('document.activeElement?.getAttribute("title")')).toBe(similar);
  await page.keyboard.press('Enter');
  await panelHeading(similar).waitFor();
  await page.keyboard.press('Alt+ArrowLeft');
  await panelHeading('The Matrix').waitFor();
  await page.keyboard.press('Escape');
  await poll(() => page.getByRole('complementary', { name: 'Title details' }).count()).toBe(0);

  await tabTo(/^Browse$/, 250, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(/^Comedy$/);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Comedy', level: 2 }).waitFor();
  await page.getByRole('list', { name: 'Comedy titles' }).getByRole('listitem').first().waitFor();
  expect(appPage.problems).toEqual([]);
}, 180_000);

test('a search says what to do instead of failing: nothing found, too long', async () => {
  await page.keyboard.press('/');
  await searchBox().fill('xyzzy');
  await page.getByText('No titles match “xyzzy”. Try a shorter word.').waitFor();
  await searchBox().fill('a'.repeat(501));
  await page
    .getByText(/That search is 501 characters long; Marquee can search at most 500\. Try a shorter word or two\./)
    .waitFor();
  expect(await page.getByText(/Too big|expected string/).count()).toBe(0);
});

test('a series shows its seasons as tabs (arrow keys between them), each with its episodes', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Search' }).click();
  await searchBox().fill('Harbor Lights');
  await page.getByRole('button', { name: /^Harbor Lights \d{4} · Series/ }).click();
  const panel = page.getByRole('complementary', { name: 'Title details' });
  const seasons = panel.getByRole('tablist', { name: 'Seasons' });
  const episodes = panel.getByRole('tabpanel').getByRole('listitem');
  await episodes.first().waitFor();
  const firstSeason = (await episodes.allTextContents()).join(' | ');
  await seasons.getByRole('tab', { name: 'Season 1', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  expect(await seasons.getByRole('tab', { name: 'Season 2', exact: true }).getAttribute('aria-selected')).toBe('true');
  // The second season's episodes replace the first's (a skeleton between them has no list items).
  await poll(async () => {
    const shown = (await episodes.allTextContents()).join(' | ');
    return shown !== '' && shown !== firstSeason;
  }).toBe(true);
});

test('signing out returns to the sign-in card', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  await appPage.close();
});
