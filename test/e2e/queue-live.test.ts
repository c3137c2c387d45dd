import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { queueList, startQueueSession, type QueueSession } from './queue-session.ts';

/**
 * Issue 26: the app is live. With the Instant Queue on screen and nobody touching the app, the
 * same subscriber on another device moves a title to the top over signed HTTP; the service's
 * change stream tells the app's core, which revalidates the queue and pushes it to the screen.
 */

let s: QueueSession;
// A real browser on a shared 2-core machine: generous per-test limits (the run itself stays short).
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  s = await startQueueSession(12);
}, 180_000);

afterAll(async () => {
  await s?.close();
}, 60_000);

/** The ref of the first row the screen shows. */
const firstShown = () =>
  queueList(s.page).getByRole('listitem').first().locator('[data-ref]').first().getAttribute('data-ref');

test("another device's move to the top shows first within 2 s, three times in a row", async () => {
  for (const index of [5, 8, 3]) {
    const ref = (await s.subscriber.order())[index]!;
    await s.subscriber.move(ref, 1);
    await expect.poll(firstShown, { timeout: 2_000, interval: 50 }).toBe(ref);
  }
  expect(s.view.problems).toEqual([]);
});
