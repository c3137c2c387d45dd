import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import {
  instantTitles,
  setInstantQueue,
  startLiveCore,
  valueOf,
  waitFor,
  type LiveCoreEnv,
} from './helpers/live-core.ts';
import { within } from '../helpers/within.ts';

/**
 * An edit made while the service is down is answered at once, as pending, even when it is made
 * while the core is trying the service again (its probe: the oldest waiting edit, sent again). The
 * probe's write is held here until the test lets it fail, as a connection that takes a while to be
 * refused would; an edit made meanwhile once waited until the service was back.
 */
let env: LiveCoreEnv;
/** The next write is held (its fetch waits) until `failHeld` is called. */
let holdNextWrite = false;
let failHeld: (() => void) | undefined;

const gatedFetch: typeof fetch = async (input, init) => {
  if (holdNextWrite && (init?.method ?? 'GET') !== 'GET') {
    holdNextWrite = false;
    await new Promise<void>((release) => (failHeld = release));
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
  }
  return fetch(input, init);
};

beforeAll(async () => {
  env = await startLiveCore({ core: { fetch: gatedFetch } });
});
afterAll(() => env?.close());

it('an edit made while the core probes the service is answered at once as pending, and lands when it is back', async () => {
  const [a, b, c] = (await instantTitles(env.other, 3)).map((t) => t.ref) as [string, string, string];
  await setInstantQueue(env.other, [a, b, c]);
  valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));

  await env.stopService();
  let serviceBack = false;
  try {
    const moved = valueOf(
      await env.core.dispatch('queue.move', { kind: 'instant', ref: a, position: 3 }),
    ) as SyncedQueue;
    expect(moved.pendingEdits).toBe(1);
    holdNextWrite = true; // the probe's write (the move sent again) is held
    await waitFor(() => failHeld !== undefined, 'the probe to send the move again');

    const removing = env.core.dispatch('queue.remove', { kind: 'instant', ref: b });
    const twoWaiting = () =>
      env.events.some(
        (e) => e.event === 'connectivity.changed' && (e.payload as { pendingEdits: number }).pendingEdits === 2,
      );
    await waitFor(twoWaiting, 'the remove to be kept while the probe is under way');
    failHeld!(); // the probe fails: still offline
    const removed = valueOf(await within(removing, 'the answer to the remove', 10_000)) as SyncedQueue;
    expect(removed.items.map((i) => i.ref)).toEqual([c, a]);
    expect(removed.pendingEdits).toBe(2);

    await env.startService();
    serviceBack = true;
    await waitFor(
      async () => (await env.other.queue('instant')).items.map((i) => i.ref).join() === [c, a].join(),
      'the edits to land',
    );
  } finally {
    if (!serviceBack) await env.startService();
  }
});
