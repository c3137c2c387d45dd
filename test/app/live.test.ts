import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantTitles, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/**
 * Issue 26, item 2, in the core: with the app open and nobody touching it, another device's change
 * reaches it through the service's change stream, is revalidated through the ETag cache and told
 * to the renderer as the IPC table's events.
 */
describe('the core listens to the change stream', () => {
  let env: LiveCoreEnv;

  beforeAll(async () => {
    env = await startLiveCore({ core: { liveUpdates: true } });
  }, 60_000);
  afterAll(() => env?.close());

  const streamOpen = () => env.exchanges.some((e) => e.url.endsWith('/changes') && e.status === 200);
  const queueShown = (from: number) =>
    env.events
      .slice(from)
      .filter((e) => e.event === 'queue.changed')
      .map((e) => e.payload.queue.items[0]?.ref)
      .at(-1);

  it("another device's move to the top is told as queue.changed within 2 s, three times in a row", async () => {
    const titles = await instantTitles(env.other, 4);
    let etag = (await env.other.queue('instant')).etag;
    for (const t of titles) etag = (await env.other.queueAdd('instant', t.ref, etag)).etag;
    valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })); // the screen shows the queue
    await expect.poll(streamOpen, { timeout: 10_000 }).toBe(true);
    for (const t of [titles[3]!, titles[2]!, titles[1]!]) {
      const from = env.events.length;
      etag = (await env.other.queueMove('instant', t.ref, 1, etag)).etag;
      await expect.poll(() => queueShown(from), { timeout: 2_000, interval: 50 }).toBe(t.ref);
    }
  });

  it("another device's rating is told as live.changed for ratings", async () => {
    const [title] = await instantTitles(env.other, 1);
    const from = env.events.length;
    await env.other.setRating(title!.ref, 4);
    await expect
      .poll(() => env.events.slice(from).some((e) => e.event === 'live.changed' && e.payload.what === 'ratings'), {
        timeout: 2_000,
        interval: 50,
      })
      .toBe(true);
  });
});
