import Database from 'better-sqlite3';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, inject, test, vi } from 'vitest';
import { apiCall, frameShown, shot } from './helpers/index.ts';
import { alive, descendants } from './helpers/processes.ts';
import { queueList, row, showQueue, startQueueSession, type QueueSession } from './queue-session.ts';
import { streamingMovieRefs } from './demo-titles.ts';

/**
 * The queue screen after a week of use (issue 25, item 6), end to end: the queue is the page's
 * scroll (a screenful of rows at 1280×800), focus never falls to the page body after Remove, Undo
 * or Escape, a saved title says the date of its queue's format, and one whose window opened can
 * be moved into the order. Every change is read back from the service over signed HTTP.
 */

let s: QueueSession;
vi.setConfig({ testTimeout: 120_000 });

const DAY_MS = 86_400_000;
/** A date `days` from today as the operator's command takes it (midnight UTC). */
const isoDay = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const idOf = (ref: string) => Number(ref.split('/').pop());

/** Three movies outside the queue this file releases as it likes (saved titles). */
let spare: string[] = [];

/** Of `refs`, those without disc sets of their own (a disc queue holds such a movie itself, not its discs). */
function withoutDiscSets(refs: readonly string[]): string[] {
  const db = new Database(inject('sqliteTemplate'), { readonly: true, fileMustExist: true });
  try {
    const holds = db.prepare(`SELECT 1 FROM titles WHERE parent_id = ? AND type = 'disc' LIMIT 1`);
    return refs.filter((ref) => holds.get(idOf(ref)) === undefined);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  s = await startQueueSession(40);
  spare = withoutDiscSets(streamingMovieRefs(s.svc, 200).slice(40)).slice(0, 3);
  expect(spare).toHaveLength(3);
}, 180_000);

afterAll(async () => {
  await s?.close();
}, 60_000);

async function reloadQueue(page: Page): Promise<void> {
  await page.reload();
  await frameShown(page).waitFor({ timeout: 30_000 });
  await showQueue(page);
}

/** What has focus: "<body>" when it fell to the page, else its accessible name (or text). */
const focused = (page: Page) =>
  page.evaluate<string>(
    `(() => { const a = document.activeElement; if (!a || a === document.body) return '<body>';
      return a.getAttribute('aria-label') ?? a.textContent ?? ''; })()`,
  );

/** The page as the date words show it ("3 Feb 2027" in this locale), for a date of the operator's command. */
const shownDate = (page: Page, iso: string) =>
  page.evaluate<string>(
    `new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
      .format(new Date('${iso}T00:00:00Z'))`,
  );

/** Queue rows wholly inside the content column's visible part (not under the status line, not scrolled off). */
async function rowsInView(page: Page): Promise<number> {
  const area = (await page.locator('#content').boundingBox())!;
  let n = 0;
  for (const item of await queueList(page).getByRole('listitem').all()) {
    const box = await item.boundingBox();
    if (box && box.y >= area.y && box.y + box.height <= area.y + area.height) n++;
  }
  return n;
}

const savedRow = (page: Page, ref: string) => page.locator(`.queue-saved-row[data-ref="${ref}"]`);
const titleIn = async (page: Page, ref: string) => (await row(page, ref).locator('.queue-title').textContent())!;
const scrollContent = (page: Page, to: 'top' | 'bottom') =>
  page.locator('#content').evaluate((el, where) => el.scrollTo(0, where === 'top' ? 0 : el.scrollHeight), to);

test('a saved title says the date of its queue’s format: streaming for instant, the first disc for disc', async () => {
  const [title] = spare;
  const instantDay = isoDay(68);
  const bluRayDay = isoDay(7);
  const dvdDay = isoDay(20);
  await s.svc.setAvailability(idOf(title!), ['--from', instantDay, '--until', 'never']);
  await s.svc.setAvailability(idOf(title!), ['--from', bluRayDay, '--until', 'never', '--format', 'Blu-ray']);
  await s.svc.setAvailability(idOf(title!), ['--from', dvdDay, '--until', 'never', '--format', 'DVD']);
  await s.subscriber.add(title!, 'instant');
  await s.subscriber.add(title!, 'disc');
  expect(await s.subscriber.saved('instant')).toEqual([title]);
  expect(await s.subscriber.saved('disc')).toEqual([title]);

  await reloadQueue(s.page);
  const instantBadge = savedRow(s.page, title!).locator('.queue-badge');
  await expect.poll(() => instantBadge.textContent()).toBe(`Expected ${await shownDate(s.page, instantDay)}`);

  await s.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Disc Queue/ })
    .click();
  const discBadge = savedRow(s.page, title!).locator('.queue-badge');
  await expect.poll(() => discBadge.textContent()).toBe(`Expected ${await shownDate(s.page, bluRayDay)}`);
  await s.subscriber.clear('disc');
  await showQueue(s.page);
});

test('at 1280×800 the page shows at least 10 queue rows with the timeline and saved titles; the counts agree', async () => {
  await scrollContent(s.page, 'top');
  expect(await s.page.getByRole('button', { name: 'Hide timeline' }).getAttribute('aria-expanded')).toBe('true');
  expect(await rowsInView(s.page)).toBeGreaterThanOrEqual(10);
  await shot(s.page, 'queue-screen-1280');

  const total = (await s.subscriber.entries('instant')).length;
  expect(await s.page.locator('.queue-count').textContent()).toBe(`${total} titles · 1 saved`);
  const sidebar = s.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Instant Queue/ });
  expect(await sidebar.locator('.nav-count').textContent()).toBe(String(total));

  // The page scrolls the list: at the bottom, the last row and the saved titles are in view.
  await scrollContent(s.page, 'bottom');
  const last = queueList(s.page).locator('[role="listitem"][aria-posinset="40"]');
  await last.waitFor();
  const box = (await last.boundingBox())!;
  const area = (await s.page.locator('#content').boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(area.y + area.height);
  expect(await s.page.locator('.queue-saved').isVisible()).toBe(true);
  await shot(s.page, 'queue-screen-1280-end');
  await scrollContent(s.page, 'top');
});

test('Remove on a row by keyboard hands focus to the next row’s Remove, the last row’s to the one before', async () => {
  const before = await s.subscriber.order();
  const next = await titleIn(s.page, before[5]!);
  await row(s.page, before[4]!)
    .getByRole('button', { name: /^Remove “/ })
    .focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => focused(s.page)).toBe(`Remove “${next}”`);
  await expect.poll(() => s.subscriber.order()).toEqual(before.filter((r) => r !== before[4]));

  await scrollContent(s.page, 'bottom');
  const now = await s.subscriber.order();
  const lastRef = now.at(-1)!;
  await row(s.page, lastRef).waitFor();
  const previous = await titleIn(s.page, now.at(-2)!);
  await row(s.page, lastRef)
    .getByRole('button', { name: /^Remove “/ })
    .focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => focused(s.page)).toBe(`Remove “${previous}”`);
  await expect.poll(() => s.subscriber.order()).toEqual(now.slice(0, -1));
  await scrollContent(s.page, 'top');
});

test('Undo in the toast by keyboard puts the title back and focus on it', async () => {
  const before = await s.subscriber.order();
  const removed = before[2]!;
  const name = await titleIn(s.page, removed);
  await row(s.page, removed)
    .getByRole('button', { name: /^Remove “/ })
    .focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => s.subscriber.order()).toEqual(before.filter((r) => r !== removed));
  await s.page.locator('.queue-toast').getByRole('button', { name: 'Undo' }).focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => s.subscriber.order()).toEqual(before);
  await expect.poll(() => focused(s.page)).toBe(name);
  expect(await s.page.evaluate('document.activeElement.closest("[data-ref]")?.dataset.ref')).toBe(removed);

  // Dismissing the toast from the keyboard leaves focus in the list, not on the page.
  await s.page.locator('.queue-toast').getByRole('button', { name: 'Dismiss' }).focus();
  await s.page.keyboard.press('Enter');
  await s.page.locator('.queue-toast').waitFor({ state: 'detached' });
  await expect.poll(() => focused(s.page)).not.toBe('<body>');
});

test('Escape in the Sort menu closes it and focus is on the Sort button again', async () => {
  const sort = s.page.getByRole('button', { name: 'Sort queue ▾' });
  await sort.focus();
  await s.page.keyboard.press('Enter');
  await s.page.getByRole('group', { name: 'Sort queue' }).waitFor();
  expect(await focused(s.page)).not.toBe('Sort queue ▾');
  await s.page.keyboard.press('Escape');
  await s.page.getByRole('group', { name: 'Sort queue' }).waitFor({ state: 'detached' });
  expect(await focused(s.page)).toBe('Sort queue ▾');
  expect(await sort.getAttribute('aria-expanded')).toBe('false');
});

test('a saved title whose window opened moves into the end of the order, read back from the service', async () => {
  const [title] = spare;
  await s.svc.setAvailability(idOf(title!), ['--from', 'now', '--until', 'never']);
  // The service keeps a saved entry saved once its window opens: the app offers the move.
  expect(await s.subscriber.saved()).toEqual([title]);
  await reloadQueue(s.page);
  const before = await s.subscriber.order();
  const moveIn = s.page.getByRole('button', { name: /^Move “.*” into the queue$/ });
  await moveIn.focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => s.subscriber.order()).toEqual([...before, title]);
  expect(await s.subscriber.saved()).toEqual([]);
  await expect.poll(() => focused(s.page)).not.toBe('<body>');
  await scrollContent(s.page, 'bottom');
  await expect.poll(() => row(s.page, title!).locator('.queue-position').textContent()).toBe(String(before.length + 1));
  await scrollContent(s.page, 'top');
});

test('Remove on a saved title by keyboard hands focus to the next saved title, then to the list', async () => {
  const [, first, second] = spare;
  for (const ref of [first!, second!]) {
    await s.svc.setAvailability(idOf(ref), ['--from', isoDay(40), '--until', 'never']);
    await s.subscriber.add(ref);
  }
  await reloadQueue(s.page);
  const secondName = (await savedRow(s.page, second!).locator('.queue-title').textContent())!;
  await savedRow(s.page, first!)
    .getByRole('button', { name: /^Remove “/ })
    .focus();
  await s.page.keyboard.press('Enter');
  await expect.poll(() => focused(s.page)).toBe(`Remove “${secondName}”`);
  await expect.poll(() => s.subscriber.saved()).toEqual([second]);

  await s.page.keyboard.press('Enter');
  await expect.poll(() => s.subscriber.saved()).toEqual([]);
  await expect.poll(() => focused(s.page)).toBe('Instant queue');
});

/** The app killed with SIGKILL, it and everything it started, as a crash or a power cut would stop it. */
async function killApp(): Promise<void> {
  const tree = [s.app.proc.pid!, ...descendants(s.app.proc.pid!)];
  for (const pid of tree) process.kill(pid, 'SIGKILL');
  await expect.poll(() => tree.some(alive)).toBe(false);
}

test('the timeline collapses from the keyboard, lifts the queue, and stays collapsed after a SIGKILL', async () => {
  await scrollContent(s.page, 'top');
  const listTop = async () => (await queueList(s.page).boundingBox())!.y;
  const expanded = await listTop();
  // Functions, not locators: the page is a new one after each restart.
  const hide = () => s.page.getByRole('button', { name: 'Hide timeline' });
  const show = () => s.page.getByRole('button', { name: 'Show timeline' });
  await hide().focus();
  await s.page.keyboard.press('Enter');
  await show().waitFor();
  expect(await show().getAttribute('aria-expanded')).toBe('false');
  expect(await focused(s.page)).toBe('Show timeline');
  await s.page.locator('#queue-timeline-body').waitFor({ state: 'detached' });
  expect(await listTop()).toBeLessThan(expanded);
  // Once the core has answered the change, it is on disk: a kill right then keeps it.
  await expect.poll(async () => (await apiCall(s.app, 'preferences.get', {})).timelineCollapsed).toBe(true);

  await killApp();
  await s.restartApp();
  await show().waitFor();
  expect(await s.page.locator('#queue-timeline-body').count()).toBe(0);
  await shot(s.page, 'queue-screen-1280-timeline-collapsed');

  await show().click();
  await hide().waitFor();
  // The screen shows it at once; restarting before the core has it would test the click's flight, not the keeping.
  await expect.poll(async () => (await apiCall(s.app, 'preferences.get', {})).timelineCollapsed).toBe(false);
  await s.restartApp();
  await hide().waitFor();
});
