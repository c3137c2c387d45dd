import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { moveToEdge } from '../../shared/pure/queue-order.ts';
import { shot } from './helpers/index.ts';
import { expectServiceOrder, row, startQueueSession, type QueueSession } from './queue-session.ts';

/**
 * Bulk edits against a service without the atomic replace (`--no-bulk-replace`: its queue PUT
 * answers 405): the core falls back to a sequence of moves, the screen shows a named progress bar
 * with Cancel, and the result (and its undo) on the service is the same as with the replace.
 */

let s: QueueSession;
const BULK_MS = 100_000;
// A real browser on a shared 2-core machine: generous per-test limits (the run itself stays short).
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  s = await startQueueSession(300, ['--no-bulk-replace']);
}, 180_000);

afterAll(async () => {
  await s?.close();
}, 60_000);

test('five selected titles move to the top by single moves', async () => {
  const before = await s.subscriber.order();
  const picked = [2, 4, 5, 7, 9].map((i) => before[i]!);
  await row(s.page, picked[0]!).locator('.queue-runtime').click();
  await row(s.page, picked[4]!)
    .locator('.queue-runtime')
    .click({ modifiers: ['Shift'] }); // a range: 3rd to 10th
  for (const i of [3, 6, 8])
    await row(s.page, before[i]!)
      .locator('.queue-runtime')
      .click({ modifiers: ['ControlOrMeta'] }); // …less three
  const toolbar = s.page.getByRole('toolbar', { name: 'Selected titles' });
  await expect.poll(() => toolbar.textContent()).toContain('5 selected');
  await toolbar.getByRole('button', { name: 'Move to top' }).click();
  await expectServiceOrder(s.subscriber, moveToEdge(before, new Set(picked), 'top'));
  await s.page.keyboard.press('Escape');
});

test('sorting 300 titles by predicted rating shows a progress bar with Cancel, lands on the service, and Undo restores it', async () => {
  const before = await s.subscriber.order();
  const predicted = await s.subscriber.predicted(before);
  const rank = (ref: string) => predicted.get(ref) ?? -1;
  const expected = [...before].sort((a, b) => rank(b) - rank(a));
  await s.page.locator('.queue-stars[role="img"]').first().waitFor(); // predictions loaded
  await s.page.getByRole('button', { name: 'Sort queue' }).click();
  await s.page.getByRole('button', { name: 'Predicted rating (highest first)' }).click();
  const progress = s.page.getByRole('progressbar', { name: /Reordering the queue/ });
  await progress.waitFor({ timeout: 30_000 });
  await s.page.getByRole('button', { name: 'Cancel' }).waitFor();
  await shot(s.page, 'queue-bulk-progress');
  // Up to 300 single moves, each an If-Match write: slower than one PUT, the reason for the bar.
  await expectServiceOrder(s.subscriber, expected, BULK_MS);
  await progress.waitFor({ state: 'detached', timeout: BULK_MS });
  await s.page.keyboard.press('ControlOrMeta+z');
  await progress.waitFor({ timeout: 30_000 });
  await expectServiceOrder(s.subscriber, before, BULK_MS);
  expect(s.view.problems).toEqual([]);
}, 240_000);
