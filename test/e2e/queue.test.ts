import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { moveRef, moveToEdge } from '../../shared/pure/queue-order.ts';
import { expectNoSeriousAxe, shot } from './helpers/index.ts';
import {
  announcer,
  expectServiceOrder,
  handle,
  keyboardMove,
  mouseDragOver,
  queueList,
  row,
  startQueueSession,
  type QueueSession,
} from './queue-session.ts';

/**
 * The queue manager end to end against a service with the atomic replace: drag with the mouse and
 * the keyboard, a conflict with another device, bulk moves, a 300-title sort and its undo, and
 * edits made offline that land after a restart. Every result is read back from the service.
 */

let s: QueueSession;
// A real browser on a shared 2-core machine: generous per-test limits (the run itself stays short).
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  // The screen's own edits and the 412 path an app meets when it has not heard of another device's
  // change: the change stream is off here (queue-live.test.ts covers the app that hears it).
  s = await startQueueSession(300, [], { MARQUEE_LIVE_UPDATES: '0' });
}, 180_000);

afterAll(async () => {
  await s?.close();
}, 60_000);

test('shows the queue with art, positions and availability, passes axe in both themes', async () => {
  const order = await s.subscriber.order();
  const first = row(s.page, order[0]!);
  await first.waitFor();
  expect(await first.locator('.queue-position').textContent()).toBe('1');
  expect(await first.locator('.queue-badge').textContent()).toMatch(/^Available/);
  await expect.poll(() => s.page.getByRole('heading', { level: 1 }).textContent()).toBe('Instant queue');
  // Virtualised: 300 titles, only the rows on screen (and a margin) are in the page.
  expect(await queueList(s.page).getByRole('listitem').count()).toBeLessThan(60);
  expect(await queueList(s.page).getByRole('listitem').first().getAttribute('aria-setsize')).toBe('300');
  await s.page.locator('.queue-stars[role="img"]').first().waitFor(); // predictions loaded
  await shot(s.page, 'queue');
  await expectNoSeriousAxe(s.page, 'the instant queue');
});

test('a title dragged with the mouse from position 8 to 2 moves there on the service', async () => {
  const before = await s.subscriber.order();
  const drop = await mouseDragOver(s.page, before[7]!, before[1]!);
  await shot(s.page, 'queue-mid-drag');
  await drop();
  await expectServiceOrder(s.subscriber, moveRef(before, before[7]!, 2));
});

test('a title moved with the keyboard (Space, arrows, Space) moves there, announced in words', async () => {
  const before = await s.subscriber.order();
  await keyboardMove(s.page, before[11]!, 12, -3);
  await expectServiceOrder(s.subscriber, moveRef(before, before[11]!, 9));
  const title = await row(s.page, before[11]!).locator('.queue-title').textContent();
  await expect.poll(() => announcer(s.page).textContent()).toBe(`Moved “${title}” to position 9 of 300.`);
});

test('Alt+↓ and typing a position move a title without dragging', async () => {
  const before = await s.subscriber.order();
  await handle(s.page, before[2]!).focus();
  await s.page.keyboard.press('Alt+ArrowDown');
  const afterAlt = moveRef(before, before[2]!, 4);
  await expectServiceOrder(s.subscriber, afterAlt);
  await row(s.page, afterAlt[5]!).locator('button.queue-position').click();
  await s.page.getByRole('spinbutton', { name: /New position for/ }).fill('1');
  await s.page.keyboard.press('Enter');
  await expectServiceOrder(s.subscriber, moveRef(afterAlt, afterAlt[5]!, 1));
});

test('a move after another device changed the queue lands on the new order, with a quiet notice', async () => {
  const before = await s.subscriber.order();
  // Another device moves the 20th title to the top; the app has not seen it.
  await s.subscriber.move(before[19]!, 1);
  const theirs = moveRef(before, before[19]!, 1);
  await keyboardMove(s.page, before[4]!, 5, -2);
  const notice = s.page.locator('.queue-notice').filter({ hasText: 'changed on another device' });
  await notice.waitFor({ timeout: 30_000 });
  await expectServiceOrder(s.subscriber, moveRef(theirs, before[4]!, 3));
  await shot(s.page, 'queue-conflict');
  await notice.getByRole('button', { name: 'Dismiss the notice' }).click();
});

test('five selected titles move to the top in their order, as one undo step', async () => {
  const before = await s.subscriber.order();
  const picked = [3, 5, 6, 8, 9].map((i) => before[i]!);
  await row(s.page, picked[0]!).locator('.queue-runtime').click();
  for (const ref of picked.slice(1))
    await row(s.page, ref)
      .locator('.queue-runtime')
      .click({ modifiers: ['ControlOrMeta'] });
  const toolbar = s.page.getByRole('toolbar', { name: 'Selected titles' });
  await expect.poll(() => toolbar.textContent()).toContain('5 selected');
  await toolbar.getByRole('button', { name: 'Move to top' }).click();
  const moved = moveToEdge(before, new Set(picked), 'top');
  await expectServiceOrder(s.subscriber, moved);
  await s.page.keyboard.press('Escape');
  await expect.poll(() => toolbar.count()).toBe(0);
  await s.page.keyboard.press('ControlOrMeta+z');
  await expectServiceOrder(s.subscriber, before);
});

test('sorting 300 titles by predicted rating is one replace on the service, and Undo restores the order', async () => {
  const before = await s.subscriber.order();
  const predicted = await s.subscriber.predicted(before);
  const rank = (ref: string) => predicted.get(ref) ?? -1;
  const expected = [...before].sort((a, b) => rank(b) - rank(a));
  await s.page.getByRole('button', { name: 'Sort queue' }).click();
  await s.page.getByRole('button', { name: 'Predicted rating (highest first)' }).click();
  await expectServiceOrder(s.subscriber, expected);
  await s.page.locator('.queue-toast').getByRole('button', { name: 'Undo' }).click();
  await expectServiceOrder(s.subscriber, before);
  expect(s.view.problems).toEqual([]);
});

test('three edits made while the service is down are shown pending and land in order after a restart', async () => {
  const before = await s.subscriber.order();
  await s.svc.stop();
  await handle(s.page, before[0]!).focus();
  await s.page.keyboard.press('Alt+ArrowDown'); // 1 → 2
  const one = moveRef(before, before[0]!, 2);
  await row(s.page, one[4]!)
    .getByRole('button', { name: /^Move .* to top$/ })
    .click(); // 5 → 1
  const two = moveRef(one, one[4]!, 1);
  await row(s.page, two[6]!).locator('button.queue-position').click(); // 7 → 3
  await s.page.getByRole('spinbutton', { name: /New position for/ }).fill('3');
  await s.page.keyboard.press('Enter');
  const three = moveRef(two, two[6]!, 3);
  // The status line counts them; the rows edited are marked Pending.
  await s.page.getByText(/^3 edits waiting to be sent/).waitFor({ timeout: 30_000 });
  await expect.poll(() => s.page.locator('.queue-slot.pending').getByText('Pending').count()).toBe(3);

  await s.restartApp(() => s.svc.start());
  await expectServiceOrder(s.subscriber, three);
});
