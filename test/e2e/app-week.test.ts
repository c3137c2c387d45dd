import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import {
  apiCall,
  launchBrowser,
  openScreen,
  openSignedIn,
  shot,
  signIn,
  startApp,
  startTestService,
  type AppPage,
  type RunningApp,
  type TestService,
} from './helpers/index.ts';
import { descendants } from './helpers/processes.ts';
import { anotherDevice, type Subscriber } from './queue-subscriber.ts';
import { streamingMovieRefs } from './demo-titles.ts';
import { serviceDataDir } from '../../electron/embedded-service.ts';
import { row, showQueue } from './queue-session.ts';
import { stopAppOnService } from './app-on-service.ts';

/**
 * What a week of real use found (issue 17), end to end: the app as `npm start` runs it without
 * Electron (the web host and its embedded service, supervised), a second service of the test's
 * own chosen in Settings, a real Chromium. Changes are read back from the services over signed
 * HTTP, as "another device" (the demo subscriber with a consumer and token of its own).
 */

vi.setConfig({ testTimeout: 120_000 });

let app: RunningApp;
let other: TestService;
let browser: Browser;
let view: AppPage;
let page: Page;
/** The demo subscriber on the embedded service, and on the other one. */
let embedded: Subscriber;
let elsewhere: Subscriber;

beforeAll(async () => {
  [app, other, browser] = await Promise.all([startApp(), startTestService(), launchBrowser()]);
  [embedded, elsewhere] = await Promise.all([
    anotherDevice({ url: app.serviceOrigin, dataDir: serviceDataDir(app.userDataDir) }),
    anotherDevice(other),
  ]);
  // Both demo subscribers start with queues of their own: these tests begin from twelve titles and nothing else.
  await Promise.all([embedded, elsewhere].map(async (s) => (await s.clear('instant'), await s.clear('disc'))));
  await Promise.all([
    embedded.fill(streamingMovieRefs({ url: app.serviceOrigin }, 12)),
    elsewhere.fill(streamingMovieRefs(other, 12)),
  ]);
  view = await openSignedIn(browser, app);
  page = view.page;
  page.setDefaultTimeout(30_000);
}, 240_000);

afterAll(() => stopAppOnService({ view, app, browser, svc: other }), 60_000);

const goTo = (name: RegExp | string) => openScreen(page, name);

const statusLine = () => page.getByRole('status', { name: 'Status' });
const titleOf = async (ref: string) => (await row(page, ref).locator('.queue-title').textContent())!;
/** A row's "Move … to top" button. */
const toTop = async (ref: string) =>
  row(page, ref).getByRole('button', { name: `Move “${await titleOf(ref)}” to top` });
/** What the tests call on the page's window (the test files have no DOM types). */
interface BrowserWindow {
  getComputedStyle(element: unknown): { color: string };
}

test('Recommendations offer each title the queue that takes it: the disc queue, Save for later, or the queue', async () => {
  await goTo('Recommendations');
  const grid = page.getByRole('list', { name: 'Recommended titles' });
  await grid.getByRole('listitem').first().waitFor();
  // Disc-only titles of the demo catalog, which issue 17 found offered "Add to queue" and refused.
  for (const name of ['Goodfellas', 'Jaws']) {
    await grid.getByRole('button', { name: `Add to disc queue: ${name}` }).waitFor();
    expect(await grid.getByRole('button', { name: `Add to queue: ${name}` }).count()).toBe(0);
  }
  await shot(page, 'recommendations-offers');
  // Every offer of the first sixteen cards, pressed: each is taken by the service, in the queue it named.
  const refs = new Map((await apiCall(app, 'recommendations.list', { max: 16 })).items.map((t) => [t.title, t.ref]));
  const cards = grid.getByRole('listitem');
  const pressed: { ref: string; offer: string }[] = [];
  for (let i = 0; i < 16; i++) {
    const button = cards.nth(i).getByRole('button', { name: /^(Add to queue|Add to disc queue|Save for later): / });
    if (!(await button.count())) continue;
    const [offer, name] = (await button.getAttribute('aria-label'))!.split(/: (.*)/s) as [string, string];
    await button.click();
    await cards
      .nth(i)
      .getByRole('button', { name: /^(In queue|In disc queue|Saved in queue): / })
      .waitFor();
    pressed.push({ ref: refs.get(name)!, offer });
  }
  expect(await grid.getByRole('alert').count()).toBe(0);
  expect(new Set(pressed.map((p) => p.offer))).toEqual(
    new Set(['Add to queue', 'Add to disc queue', 'Save for later']),
  );
  const [instant, disc] = await Promise.all([embedded.entries('instant'), embedded.entries('disc')]);
  for (const { ref, offer } of pressed) {
    const entry = (offer === 'Add to disc queue' ? disc : instant).find((e) => e.ref === ref);
    expect(entry, `${offer}: ${ref}`).toBeDefined();
    expect(entry!.position === null, `${offer}: ${ref} saved`).toBe(offer === 'Save for later');
  }
});

test('"Results per page" sets how many titles Browse asks for at a time', async () => {
  await goTo('Settings');
  await page.getByLabel('Results per page').selectOption('96');
  const asked: number[] = [];
  const hear = (request: Request) => {
    if (request.url().endsWith('/api/catalog.browse')) asked.push((request.postDataJSON() as { max: number }).max);
  };
  page.on('request', hear);
  try {
    await goTo('Browse');
    await page.getByRole('navigation', { name: 'Genres' }).getByRole('button').nth(1).click();
    await page.locator('.title-grid .title-card').first().waitFor();
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([96]));
  } finally {
    page.off('request', hear);
    await goTo('Settings');
    await page.getByLabel('Results per page').selectOption('24');
  }
});

test('hovering "Not interested" or "Clear rating" lights no star; hovering a star lights it and those before', async () => {
  await goTo('Browse');
  await page.locator('.title-grid .title-card').first().click();
  const rating = page.getByRole('complementary', { name: 'Title details' }).getByRole('group', { name: 'Your rating' });
  await rating.waitFor();
  const starColours = () =>
    rating
      .locator('.star')
      .evaluateAll((stars) => stars.map((s) => (globalThis as unknown as BrowserWindow).getComputedStyle(s).color));
  // The theme's star colour, resolved where the stars are (a probe styled with var(--star)).
  const lit = await rating.evaluate((group) => {
    const probe = group.ownerDocument.createElement('span');
    probe.style.color = 'var(--star)';
    group.append(probe);
    const colour = (globalThis as unknown as BrowserWindow).getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  // Stars answer hover only once enabled (the title's state has loaded), and a hover shows a frame later.
  await expect.poll(() => rating.getByRole('button', { name: 'Rate 5 stars' }).isEnabled()).toBe(true);
  await rating.getByRole('button', { name: 'Rate 5 stars' }).hover();
  await expect.poll(starColours).toEqual([lit, lit, lit, lit, lit]);
  await rating.getByRole('button', { name: 'Rate 2 stars' }).click();
  await rating.getByRole('button', { name: 'Clear rating' }).waitFor();
  await expect.poll(() => rating.getByRole('button', { name: 'Rate 5 stars' }).isEnabled()).toBe(true); // the rating is saved
  for (const words of ['Not interested', 'Clear rating']) {
    await rating.getByRole('button', { name: words }).hover();
    const colours = await starColours();
    expect(
      colours.slice(2).filter((c) => c === lit),
      `stars 3–5 while hovering ${words}`,
    ).toEqual([]);
  }
  await rating.getByRole('button', { name: 'Clear rating' }).click();
  await rating.getByRole('button', { name: 'Clear rating' }).waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
});

test('a killed embedded service is started again on its port; an edit made meanwhile reaches it', async () => {
  await showQueue(page);
  const before = await embedded.order();
  const third = before[2]!;
  const moveToTop = await toTop(third);
  const pid = servicePid();
  process.kill(pid, 'SIGKILL');
  const killedAt = Date.now();
  await statusLine().getByText('Service stopped – restarting…').waitFor();
  await moveToTop.click();
  await statusLine()
    .getByText('Service is back')
    .waitFor({ timeout: 10_000 - (Date.now() - killedAt) });
  await expect
    .poll(() => embedded.order(), { timeout: Math.max(1, 10_000 - (Date.now() - killedAt)), interval: 250 })
    .toEqual([third, ...before.filter((r) => r !== third)]);
  expect(servicePid()).not.toBe(pid);
  expect(new URL(app.serviceOrigin).port).toBe(/--port (\d+)/.exec(serviceArgs(servicePid()))?.[1]);
});

test('box art shows after switching service in Settings: to a service added now, and back to the built-in one', async () => {
  await goTo('Settings');
  const consumer = await other.addConsumer('Week of use');
  await page.getByRole('button', { name: 'Add a service…' }).click();
  await page.getByLabel('Name').fill('Other service');
  await page.getByLabel('Address').fill(other.url);
  await page.getByLabel('Consumer key').fill(consumer.key);
  await page.getByLabel('Consumer secret').fill(consumer.secret);
  await page.getByRole('button', { name: 'Test and save' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor(); // the new service is active: nobody is signed in to it yet
  await signIn(view, { ...app, demo: other.demo });
  await goTo('Browse');
  await expectBoxArtFrom(other.url);
  await goTo('Settings');
  await useService(/Built-in demo service/);
  await goTo('Browse');
  await expectBoxArtFrom(app.serviceOrigin);
  expect(view.problems.filter((p) => /Content Security Policy/i.test(p))).toEqual([]);
});

/** Picks a service in Settings (the radio shows it chosen once the app has switched). */
async function useService(name: RegExp): Promise<void> {
  const radio = page.getByRole('radio', { name });
  await radio.click();
  await expect.poll(() => radio.isChecked()).toBe(true);
}

/** Posters on Browse have loaded from `origin` (one blocked by the page's CSP fails and leaves a grey frame). */
async function expectBoxArtFrom(origin: string): Promise<void> {
  const loaded = page.locator(`.title-grid .box-art img.loaded[src^="${new URL(origin).origin}/"]`);
  await loaded.first().waitFor();
  expect(
    await loaded.first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
  ).toBeGreaterThan(0);
}

test('an idle queue shows another device’s change when the window gets the focus back', async () => {
  await showQueue(page);
  const before = await embedded.order();
  const fifth = before[4]!;
  await row(page, fifth).waitFor();
  await embedded.move(fifth, 1);
  // The window left for another one and back: the events an OS focus change sends.
  await page.evaluate("window.dispatchEvent(new Event('blur')); window.dispatchEvent(new Event('focus'))");
  await expect.poll(() => row(page, fifth).locator('.queue-position').textContent(), { timeout: 20_000 }).toBe('1');
});

test('offline: "Pending" marks stay after leaving the queue and coming back; another genre shows no old posters', async () => {
  await goTo('Settings');
  await useService(/Other service/);
  await goTo('Browse'); // the first genre's posters, for the genre switch below
  await page.locator('.title-grid .title-card').first().waitFor();
  await showQueue(page);
  const before = await elsewhere.order();
  const third = before[2]!;
  const moveToTop = await toTop(third);
  await other.stop();
  try {
    await moveToTop.click();
    await row(page, third).getByText('Pending').waitFor();
    await goTo('Settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await showQueue(page);
    await row(page, third).getByText('Pending').waitFor();
    await shot(page, 'queue-offline-pending');

    await goTo('Browse');
    const genres = page.getByRole('navigation', { name: 'Genres' }).getByRole('button');
    await page.locator('.title-grid .title-card').first().waitFor();
    const asked: string[] = [];
    const hear = (request: Request) => {
      if (request.url().endsWith('/api/catalog.browse'))
        asked.push((request.postDataJSON() as { genre: string }).genre);
    };
    page.on('request', hear);
    // Whether the grid ever showed posters while it was loading another genre (kept in the page: it can be brief).
    await page.evaluate(`window.staleSeen = false;
      new MutationObserver(() => { window.staleSeen ||= document.querySelector('.browse-results[aria-busy="true"] .title-card') !== null; })
        .observe(document.body, { subtree: true, childList: true, attributes: true });`);
    const target = genres.nth(4);
    const genre = (await target.textContent())!;
    await target.click();
    await page.getByRole('alert').filter({ hasText: 'This couldn’t load while the service is unreachable.' }).waitFor();
    page.off('request', hear);
    expect(await page.evaluate('window.staleSeen')).toBe(false);
    expect(asked.filter((g) => g === genre)).toHaveLength(1); // once: the core retried already
  } finally {
    await other.start();
  }
  await showQueue(page);
  await expect
    .poll(() => elsewhere.order(), { timeout: 60_000, interval: 250 })
    .toEqual([third, ...before.filter((r) => r !== third)]);
  await row(page, third).getByText('Pending').waitFor({ state: 'detached', timeout: 60_000 });
});

/** The embedded service's process: the web host's child started with the app's service data folder. */
function servicePid(): number {
  const dataDir = join(app.userDataDir, 'service');
  const found = descendants(app.proc.pid!).filter((pid) => serviceArgs(pid).includes(`--data-dir ${dataDir} `));
  if (found.length !== 1) throw new Error(`expected one service process, found ${found.length}`);
  return found[0]!;
}

function serviceArgs(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
}
