import { urlOf } from '../helpers/fetch-input.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Events } from '../../shared/ipc.ts';
import { instantTitles, setInstantQueue, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/** The core's queue writes are answered this late, so the change stream's event of a write beats its answer. */
const SLOW_ANSWER_MS = 600;

/** A fetch whose queue writes answer late (the service has applied them already). */
const slowWrites: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const write = (init?.method ?? 'GET') !== 'GET' && /\/queues\//.test(urlOf(input));
  if (write) await new Promise((r) => setTimeout(r, SLOW_ANSWER_MS));
  return res;
};

/**
 * Issue 26, item 2: the core tells the renderer that a queue changed on another device
 * ('live.changed' with `what: 'queue'`) after reading it again, and never for the app's own edits,
 * even when the stream's event of an edit arrives before the edit's answer.
 */
describe('queue news from the change stream', () => {
  let env: LiveCoreEnv;
  let refs: string[];

  beforeAll(async () => {
    env = await startLiveCore({ core: { liveUpdates: true, fetch: slowWrites } });
    refs = (await instantTitles(env.other, 4)).map((t) => t.ref);
    await setInstantQueue(env.other, refs);
    valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })); // the screen shows the queue
  }, 60_000);
  afterAll(() => env?.close());

  const queueNews = (from: number) =>
    env.events.slice(from).filter((e) => e.event === 'live.changed' && e.payload.what === 'queue');
  const ratingNews = (from: number) =>
    env.events.slice(from).some((e) => e.event === 'live.changed' && e.payload.what === 'ratings');

  it("tells another device's move as queue news, after the queue it shows", async () => {
    const from = env.events.length;
    const etag = (await env.other.queue('instant')).etag;
    await env.other.queueMove('instant', refs[3]!, 1, etag);
    await expect.poll(() => queueNews(from).length, { timeout: 2_000, interval: 50 }).toBe(1);
    expect(queueNews(from)[0]!.payload).toEqual({ what: 'queue', kind: 'instant' });
    const shown = env.events.slice(from).findLast((e) => e.event === 'queue.changed');
    expect((shown?.payload as Events['queue.changed']).queue.items[0]!.ref).toBe(refs[3]);
    const after = env.events.slice(from);
    expect(after.findIndex((e) => e.event === 'queue.changed')).toBeLessThan(after.indexOf(queueNews(from)[0]!));
  });

  it("tells nothing of the app's own move, though its event comes before its answer", async () => {
    const from = env.events.length;
    const moved = valueOf(await env.core.dispatch('queue.move', { kind: 'instant', ref: refs[2]!, position: 1 }));
    expect(moved.items[0]!.ref).toBe(refs[2]);
    // A later change on another channel: by its news, the stream's event of the move was weighed.
    const [title] = await instantTitles(env.other, 1);
    await env.other.setRating(title!.ref, 3);
    await expect.poll(() => ratingNews(from), { timeout: 5_000, interval: 50 }).toBe(true);
    expect(queueNews(from)).toEqual([]);
  });

  it("tells nothing of the app's own removal", async () => {
    const from = env.events.length;
    const left = valueOf(await env.core.dispatch('queue.remove', { kind: 'instant', ref: refs[0]! }));
    expect(left.items.map((i) => i.ref)).not.toContain(refs[0]);
    const [title] = await instantTitles(env.other, 1);
    await env.other.setRating(title!.ref, 5);
    await expect.poll(() => ratingNews(from), { timeout: 5_000, interval: 50 }).toBe(true);
    expect(queueNews(from)).toEqual([]);
  });
});
