import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { QueueItem } from '../../shared/models.ts';
import { formatShortDate, inDays } from '../../renderer/components/queue/timeline-marks.ts';
import {
  expectNoSeriousAxe,
  frameShown,
  launchBrowser,
  openSignedIn,
  shot,
  startApp,
  type AppPage,
  type RunningApp,
} from './helpers/index.ts';
import { anotherDevice, type Subscriber } from './queue-subscriber.ts';
import { serviceDataDir } from '../../electron/embedded-service.ts';
import { stopAppOnService } from './app-on-service.ts';

/**
 * The first run of the app (web host, embedded demo service, Chromium): the demo subscriber's
 * instant queue is there with saved titles, and the "next 90 days" timeline marks each title
 * leaving on the day the service says, and each saved title arriving; a mark opens its title.
 * The service's answers are read over signed HTTP, as another device would.
 */
const DAY = 86_400;
vi.setConfig({ testTimeout: 180_000 });

let app: RunningApp;
let browser: Browser;
let view: AppPage;
let page: Page;
let subscriber: Subscriber;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  subscriber = await anotherDevice({ url: app.serviceOrigin, dataDir: serviceDataDir(app.userDataDir) });
  view = await openSignedIn(browser, app);
  page = view.page;
  page.setDefaultTimeout(30_000);
}, 240_000);

afterAll(() => stopAppOnService({ view, app, browser }), 60_000);

const timeline = () => page.getByRole('group', { name: 'Timeline of the next 90 days' });
const marks = () => timeline().getByRole('button');
const panel = () => page.getByRole('complementary', { name: 'Title details' });
const panelHeading = (name: string) => panel().getByRole('heading', { level: 2, name, exact: true });

/** What the timeline must say of each title leaving within 90 days, from the service's own "available until" words. */
function leavingWords(items: readonly QueueItem[]): string[] {
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  return items.flatMap((item) => {
    const until = /^available until (\d{4}-\d{2}-\d{2})$/.exec(item.availability)?.[1];
    if (item.position === null || !until) return [];
    const day = Date.parse(`${until}T00:00:00Z`) / 1000;
    const days = Math.round((day - today) / DAY);
    return days >= 0 && days <= 90 ? [`Leaving ${inDays(days)}: ${item.title} (${formatShortDate(day)})`] : [];
  });
}

test('the first run shows the demo subscriber’s instant queue of about forty titles, saved ones apart', async () => {
  const items = await subscriber.items('instant');
  const saved = items.filter((i) => i.position === null);
  expect(items.length).toBeGreaterThanOrEqual(35);
  expect(saved.length).toBeGreaterThan(0);
  await frameShown(page)
    .getByRole('button', { name: /^Instant Queue/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Instant queue' }).waitFor();
  // The heading counts what the sidebar counts (every title), and says how many of them are saved.
  await page.getByText(`${items.length} titles · ${saved.length} saved`, { exact: true }).waitFor();
  const savedList = page.getByRole('list', { name: /^Saved/ });
  await expect.poll(() => savedList.getByRole('listitem').count()).toBe(saved.length);
  expect(new Set(await savedList.getByRole('button', { name: /^(?!Remove|Move)/ }).allTextContents())).toEqual(
    new Set(saved.map((i) => i.title)),
  );
});

test('the timeline marks every title leaving within 90 days on the service’s date, and every saved title arriving', async () => {
  const items = await subscriber.items('instant');
  const expected = leavingWords(items);
  expect(expected.length, 'the demo queue has titles leaving within 90 days').toBeGreaterThan(0);
  await marks().first().waitFor();
  const saved = items.filter((i) => i.position === null);
  // Arrivals wait for each saved title's details: poll until every one is marked.
  await expect.poll(async () => (await marks().all()).length).toBe(expected.length + saved.length);
  const labels = await Promise.all((await marks().all()).map((m) => m.getAttribute('aria-label')));
  expect(labels.filter((l) => l!.startsWith('Leaving')).sort()).toEqual([...expected].sort());
  const arriving = labels
    .filter((l) => l!.startsWith('Arriving'))
    .map((l) => /^Arriving [^:]+: (.*) \([^)]+\)$/.exec(l!)?.[1]);
  expect(new Set(arriving)).toEqual(new Set(saved.map((i) => i.title)));
  // The same facts in words, in the list a screen reader reads.
  const words = await page
    .getByRole('list', { name: 'Leaving and arriving, by date' })
    .getByRole('listitem')
    .allTextContents();
  expect(new Set(words)).toEqual(new Set(labels));
  await expectNoSeriousAxe(page, 'queue with its timeline');
  await shot(page, 'queue-timeline-1280');
});

test('a mark opens its title, by mouse and by keyboard (one tab stop, arrows between marks)', async () => {
  const first = marks().first();
  const title = /: (.*) \([^)]+\)$/.exec((await first.getAttribute('aria-label'))!)![1]!;
  await first.click();
  await panelHeading(title).waitFor();
  await page.keyboard.press('Escape');
  await panel().waitFor({ state: 'detached' });

  expect(await timeline().locator('[tabindex="0"]').count()).toBe(1);
  await first.focus();
  await page.keyboard.press('ArrowRight');
  const second = marks().nth(1);
  await expect.poll(() => second.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  const secondTitle = /: (.*) \([^)]+\)$/.exec((await second.getAttribute('aria-label'))!)![1]!;
  await page.keyboard.press('Enter');
  await panelHeading(secondTitle).waitFor();
  await shot(page, 'queue-timeline-1280-panel');
  await expectNoSeriousAxe(page, 'queue with its timeline and a title open');
});

test('beside the title panel in a 900 px window the timeline still shows every mark inside the queue', async () => {
  await page.setViewportSize({ width: 900, height: 800 });
  await panel().waitFor();
  const count = await marks().count();
  const box = (await timeline().boundingBox())!;
  for (let i = 0; i < count; i++) {
    const mark = (await marks().nth(i).boundingBox())!;
    expect(mark.x, `mark ${i} inside the timeline`).toBeGreaterThanOrEqual(box.x);
    expect(mark.x + mark.width, `mark ${i} inside the timeline`).toBeLessThanOrEqual(box.x + box.width);
  }
  await shot(page, 'queue-timeline-900-panel');
  await page.setViewportSize({ width: 1280, height: 800 });
});
