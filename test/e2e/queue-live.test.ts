import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { moveRef } from '../../shared/pure/queue-order.ts';
import { shot } from './helpers/index.ts';
import {
  announcer,
  expectServiceOrder,
  handle,
  queueList,
  row,
  scrollQueueToTop,
  startQueueSession,
  type QueueSession,
} from './queue-session.ts';

/**
 * Issue 26: the app is live. With the Instant Queue on screen and nobody touching the app, the
 * same subscriber on another device moves, removes and rates titles over signed HTTP; the service's
 * change stream tells the app's core, which revalidates and pushes the change to the screen: rows
 * update in place, the status line says why in words, focus stays where it was, and a title the
 * person is moving with the keyboard is not moved under them.
 */

let s: QueueSession;
// A real browser on a shared 2-core machine: generous per-test limits (the run itself stays short).
vi.setConfig({ testTimeout: 90_000 });

const NOTICE = 'Your Instant Queue changed on another device.';

beforeAll(async () => {
  s = await startQueueSession(14); // the tests below remove three titles; the last one moves the tenth
}, 180_000);

afterAll(async () => {
  await s?.close();
}, 60_000);

/** The ref of the first row the screen shows. */
const firstShown = () =>
  queueList(s.page).getByRole('listitem').first().locator('[data-ref]').first().getAttribute('data-ref');

/** The refs the screen shows, in the order of their positions. */
const shownOrder = () =>
  queueList(s.page)
    .getByRole('listitem')
    .evaluateAll((slots) =>
      slots
        .map((slot) => ({
          at: Number(slot.getAttribute('aria-posinset')),
          ref: slot.querySelector('[data-ref]')?.getAttribute('data-ref') ?? '',
        }))
        .sort((a, b) => a.at - b.at)
        .map((slot) => slot.ref),
    );

const statusLine = () => s.page.getByRole('status', { name: 'Status' });
const noticeShown = async () => (await statusLine().textContent())?.includes(NOTICE) ?? false;

/** Where focus is: the aria-label (or text) of the control and the row it belongs to. */
const focusNow = () =>
  s.page.locator(':focus').evaluate((el) => ({
    control: el.getAttribute('aria-label') ?? el.textContent ?? '',
    ref: el.closest('[data-ref]')?.getAttribute('data-ref') ?? null,
  }));

test("another device's move to the top shows first within 2 s, three times in a row", async () => {
  for (const index of [5, 8, 3]) {
    const ref = (await s.subscriber.order())[index]!;
    await s.subscriber.move(ref, 1);
    await expect.poll(firstShown, { timeout: 2_000, interval: 50 }).toBe(ref);
  }
  expect(s.view.problems).toEqual([]);
});

test("another device's removal goes within 2 s, and the status line says why in words", async () => {
  const ref = (await s.subscriber.order())[4]!;
  await s.subscriber.remove(ref);
  await expect.poll(() => row(s.page, ref).count(), { timeout: 2_000, interval: 50 }).toBe(0);
  expect(await shownOrder()).toEqual(await s.subscriber.order());
  await expect.poll(noticeShown).toBe(true);
  await shot(s.page, 'queue-live-notice');
  expect(s.view.problems).toEqual([]);
});

test("focus stays on the row control it was on while another device's move shifts the rows", async () => {
  const order = await s.subscriber.order();
  const focusedRef = order[2]!;
  const control = row(s.page, focusedRef).getByRole('button', { name: /^Move .* to bottom$/ });
  await control.focus();
  const before = await focusNow();
  const scrolled = await s.page.locator('#content').evaluate((el) => el.scrollTop);
  await s.subscriber.move(order[7]!, 1);
  await expect.poll(firstShown, { timeout: 2_000, interval: 50 }).toBe(order[7]);
  expect(await focusNow()).toEqual(before);
  expect(before.ref).toBe(focusedRef);
  expect(await s.page.locator('#content').evaluate((el) => el.scrollTop)).toBe(scrolled);
});

test('another device removes the title whose row has focus: focus goes to the same control in the next row', async () => {
  const order = await s.subscriber.order();
  const gone = order[2]!;
  await row(s.page, gone)
    .getByRole('button', { name: /^Move .* to bottom$/ })
    .focus();
  await s.subscriber.remove(gone);
  await expect.poll(() => row(s.page, gone).count()).toBe(0);
  // The row that took its place has focus on its own "Move … to bottom", not the page body.
  await expect.poll(focusNow).toEqual({ control: expect.stringMatching(/^Move .* to bottom$/), ref: order[3] });
  expect(s.view.problems).toEqual([]);
});

/** Where a row stands on screen (its top, in CSS pixels) and its place in the list. */
const placeOf = (ref: string) =>
  row(s.page, ref).evaluate((el) => ({
    y: Math.round(el.getBoundingClientRect().top),
    at: Number(el.closest('[role="listitem"]')?.getAttribute('aria-posinset')),
  }));

test('scrolled down the queue, a person keeps their place while another device moves and removes titles above', async () => {
  // A short window, so that a queue of a dozen scrolls: the 4th row near the top, three rows above
  // the view and room below to scroll a row further.
  await s.page.setViewportSize({ width: 1280, height: 360 });
  try {
    const order = await s.subscriber.order();
    const watched = order[3]!;
    await row(s.page, watched).evaluate((el) => {
      const content = el.closest('#content')!;
      content.scrollTop += el.getBoundingClientRect().top - content.getBoundingClientRect().top - 20;
    });
    const viewTop = await s.page.locator('#content').evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await placeOf(watched);
    expect(before).toEqual({ y: viewTop + 20, at: 4 }); // scrolled as meant: the row 20 px below the view's top

    await s.subscriber.move(order.at(-1)!, 1); // from below the view to the top: the rows above grow by one
    await expect.poll(async () => (await placeOf(watched)).at).toBe(5);
    expect((await placeOf(watched)).y).toBe(before.y);

    await s.subscriber.remove(order[1]!); // and one row above the view goes
    await expect.poll(async () => (await placeOf(watched)).at).toBe(4);
    expect((await placeOf(watched)).y).toBe(before.y);
    await shot(s.page, 'queue-live-scrolled');
    expect(s.view.problems).toEqual([]);
  } finally {
    await s.page.setViewportSize({ width: 1280, height: 800 });
    await scrollQueueToTop(s.page);
  }
});

test("another device's rating shows in the open title's panel within 2 s", async () => {
  const ref = (await s.subscriber.order())[1]!;
  await row(s.page, ref).locator('.queue-title').click();
  const stars = s.page.getByRole('group', { name: 'Your rating' });
  await stars.waitFor();
  const rating =
    (await stars.getByRole('button', { name: 'Rate 2 stars' }).getAttribute('aria-pressed')) === 'true' ? 3 : 2;
  await s.subscriber.rate(ref, rating);
  await expect
    .poll(() => stars.getByRole('button', { name: `Rate ${rating} stars` }).getAttribute('aria-pressed'), {
      timeout: 2_000,
      interval: 50,
    })
    .toBe('true');
  await s.page.keyboard.press('Escape');
  await stars.waitFor({ state: 'detached' });
});

test("a title lifted with the keyboard is not moved by another device's move, and its drop lands", async () => {
  // The notices of the tests before fade first: the next one then says the live move has arrived.
  await expect.poll(noticeShown, { timeout: 30_000 }).toBe(false);
  const before = await s.subscriber.order();
  const lifted = before[5]!;
  const live = announcer(s.page);
  await handle(s.page, lifted).focus();
  await s.page.keyboard.press('Space');
  await expect.poll(() => live.textContent()).toMatch(/^Picked up .*position 6 of/);
  await s.page.keyboard.press('ArrowUp');
  await expect.poll(() => live.textContent()).toMatch(/is over position 5 of/);
  const heldOnScreen = await shownOrder();

  const other = before[9]!;
  await s.subscriber.move(other, 1);
  await expect.poll(noticeShown).toBe(true); // the live move reached the screen, which holds it
  expect(await shownOrder()).toEqual(heldOnScreen);
  expect(await live.textContent()).toMatch(/is over position 5 of/);

  await s.page.keyboard.press('ArrowUp');
  await expect.poll(() => live.textContent()).toMatch(/is over position 4 of/);
  await s.page.keyboard.press('Space');
  await expect.poll(() => live.textContent()).toMatch(/^Moved /);
  // The person's intent ("this title to place 4") on the queue as the other device left it.
  const expected = moveRef(moveRef(before, other, 1), lifted, 4);
  await expectServiceOrder(s.subscriber, expected);
  await expect.poll(shownOrder).toEqual(expected);
  expect(s.view.problems).toEqual([]);
});
