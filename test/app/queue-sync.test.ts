import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import type { TitleSummary } from '../../shared/models.ts';
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
 * Queue edits as intents, through the composed core (createCore) against the real service, with a
 * second device (another token of the same subscriber) writing to the same queue.
 */
let env: LiveCoreEnv;
let titles: TitleSummary[];
let a: string, b: string, c: string, d: string;

beforeAll(async () => {
  env = await startLiveCore();
  titles = await instantTitles(env.other, 4);
  [a, b, c, d] = titles.map((t) => t.ref) as [string, string, string, string];
});
afterAll(() => env?.close());

beforeEach(async () => {
  await setInstantQueue(env.other, [a, b, c]);
  valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })); // the app has read the queue
  env.exchanges.length = 0;
  env.events.length = 0;
});

const order = (q: { items: Array<{ ref: string }> }) => q.items.map((i) => i.ref);
const nameOf = (ref: string) => titles.find((t) => t.ref === ref)!.title;
const writes = () => env.exchanges.filter((x) => x.method !== 'GET');
const outboxFile = () => join(env.dir, 'queue-outbox.json');
const outboxIntents = () =>
  existsSync(outboxFile())
    ? (JSON.parse(readFileSync(outboxFile(), 'utf8')) as { entries: Array<{ intent: unknown }> }).entries.map(
        (e) => e.intent,
      )
    : [];
const serviceOrder = async () => order(await env.other.queue('instant'));

describe('a second writer between our read and our write', () => {
  it('rebases the move on the fresh queue and retries once: the intended order', async () => {
    await env.other.queueMove('instant', c, 1, (await env.other.queue('instant')).etag); // other device: [c, a, b]

    const result = await env.core.dispatch('queue.move', { kind: 'instant', ref: a, position: 3 });

    const queue = valueOf(result) as SyncedQueue;
    expect(order(queue)).toEqual([c, b, a]);
    expect(queue.pendingEdits).toBe(0);
    expect(await serviceOrder()).toEqual([c, b, a]);
    const posts = writes();
    expect(posts.map((x) => x.status)).toEqual([412, 201]);
    expect(posts[0]!.ifMatch).not.toBe(posts[1]!.ifMatch); // the retry carried the fresh ETag
    const changed = env.events.filter((e) => e.event === 'queue.changed');
    expect(changed.at(-1)?.payload).toMatchObject({ kind: 'instant', queue: { etag: queue.etag } });
    // A quiet notice: the move was rebased onto the other device's change and applied.
    expect(env.events.filter((e) => e.event === 'queue.conflict').map((e) => e.payload)).toEqual([
      {
        kind: 'instant',
        message: 'The queue changed on another device; your move was applied to the new order.',
        applied: true,
      },
    ]);
  });

  it('adds at a position clamped to the fresh queue when another device removed titles', async () => {
    const fresh = await env.other.queue('instant');
    await env.other.queueRemove(fresh.items.find((i) => i.ref === c)!.itemRef, fresh.etag); // other device: [a, b]

    const queue = valueOf(await env.core.dispatch('queue.add', { kind: 'instant', ref: d, position: 2 }));
    expect(order(queue)).toEqual([a, d, b]);
    expect(writes().map((x) => x.status)).toEqual([412, 201]);
  });

  it('an add of a title another device already queued is done, with no second write', async () => {
    const fresh = await env.other.queue('instant');
    await env.other.queueAdd('instant', d, fresh.etag); // [a, b, c, d]

    const queue = valueOf(await env.core.dispatch('queue.add', { kind: 'instant', ref: d }));
    expect(order(queue)).toEqual([a, b, c, d]);
    expect(writes().map((x) => x.status)).toEqual([412]);
    expect(env.events.some((e) => e.event === 'queue.conflict')).toBe(false);
  });

  it('a remove of a title another device already removed is done', async () => {
    const fresh = await env.other.queue('instant');
    await env.other.queueRemove(fresh.items.find((i) => i.ref === b)!.itemRef, fresh.etag);

    const queue = valueOf(await env.core.dispatch('queue.remove', { kind: 'instant', ref: b }));
    expect(order(queue)).toEqual([a, c]);
    expect(env.events.some((e) => e.event === 'queue.conflict')).toBe(false);
  });
});

describe('an intent that no longer makes sense', () => {
  it('reports a conflict saying what happened, and writes nothing', async () => {
    const fresh = await env.other.queue('instant');
    await env.other.queueRemove(fresh.items.find((i) => i.ref === b)!.itemRef, fresh.etag); // other device: [a, c]
    const after = await env.other.queue('instant');

    const result = await env.core.dispatch('queue.move', { kind: 'instant', ref: b, position: 1 });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    const message = `“${nameOf(b)}” was removed on another device, so it could not be moved.`;
    expect(result.error).toMatchObject({ kind: 'conflict', status: 412, message });
    expect(env.events.filter((e) => e.event === 'queue.conflict').map((e) => e.payload)).toEqual([
      { kind: 'instant', message, applied: false },
    ]);
    // The one write the app tried went out on the old ETag and was refused; none after the refetch.
    expect(writes().map((x) => x.status)).toEqual([412]);
    const now = await env.other.queue('instant');
    expect(order(now)).toEqual([a, c]);
    expect(now.etag).toBe(after.etag);
    expect(outboxIntents()).toEqual([]);
  });
});

describe('offline: the outbox', () => {
  it('keeps edits in a file while the service is down and replays them in order when it is back', async () => {
    await env.stopService();
    try {
      const first = valueOf(
        await env.core.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 }),
      ) as SyncedQueue;
      expect(order(first)).toEqual([c, a, b]); // optimistic
      expect(first.pendingEdits).toBe(1);
      const second = valueOf(
        await env.core.dispatch('queue.move', { kind: 'instant', ref: a, position: 3 }),
      ) as SyncedQueue;
      expect(order(second)).toEqual([c, b, a]);
      expect(second.pendingEdits).toBe(2);

      expect(outboxIntents()).toEqual([
        { op: 'move', kind: 'instant', ref: c, position: 1, name: nameOf(c) },
        { op: 'move', kind: 'instant', ref: a, position: 3, name: nameOf(a) },
      ]);
      expect(env.events.filter((e) => e.event === 'connectivity.changed').at(-1)?.payload).toEqual({
        online: false,
        pendingEdits: 2,
      });
      // Offline reads answer the last queue read with the waiting edits applied.
      expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual([c, b, a]);
    } finally {
      await env.startService();
    }

    await waitFor(() => outboxIntents().length === 0, 'the outbox to drain');
    expect(await serviceOrder()).toEqual([c, b, a]);
    const moves = writes().filter((x) => x.status === 201);
    expect(moves).toHaveLength(2);
    expect(env.events.filter((e) => e.event === 'connectivity.changed').at(-1)?.payload).toEqual({
      online: true,
      pendingEdits: 0,
    });
    const last = env.events.filter((e) => e.event === 'queue.changed').at(-1)!.payload as unknown as {
      queue: SyncedQueue;
    };
    expect(order(last.queue)).toEqual([c, b, a]);
    expect(last.queue.pendingEdits).toBe(0);
  });

  it('survives a restart of the core: a new core reads the outbox file and replays it', async () => {
    await env.stopService();
    try {
      // Each step names itself if it hangs (this test once ran out of time with no word of where).
      valueOf(await within(env.core.dispatch('queue.move', { kind: 'instant', ref: b, position: 1 }), 'the move'));
      valueOf(await within(env.core.dispatch('queue.remove', { kind: 'instant', ref: c }), 'the remove'));
      await env.restartCore(); // closes the old core: its edits are only in the file now
      expect(outboxIntents()).toHaveLength(2);
      const offline = await env.core.dispatch('auth.status', {});
      expect(valueOf(offline).signedIn).toBe(true);
    } finally {
      await env.startService();
    }
    await waitFor(() => outboxIntents().length === 0, 'the new core to replay the outbox');
    expect(await serviceOrder()).toEqual([b, a]);
  });

  it('keeps an edit that no longer makes sense when it is replayed, refused in words, until the person discards it', async () => {
    // The other device removes a title; the app has not heard of it when it goes offline.
    const fresh = await env.other.queue('instant');
    await env.other.queueRemove(fresh.items.find((i) => i.ref === c)!.itemRef, fresh.etag);
    await env.stopService();
    try {
      const queue = valueOf(
        await env.core.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 }),
      ) as SyncedQueue;
      expect(queue.pendingEdits).toBe(1);
    } finally {
      await env.startService();
    }

    await waitFor(() => env.events.some((e) => e.event === 'queue.refused'), 'the refusal');
    const told = env.events.filter((e) => e.event === 'queue.refused').at(-1)!.payload as {
      edits: Array<{ id: string; edit: string; reason: string }>;
    };
    expect(told.edits.map(({ edit, reason }) => ({ edit, reason }))).toEqual([
      {
        edit: `Move “${nameOf(c)}” to position 1`,
        reason: `“${nameOf(c)}” was removed on another device.`,
      },
    ]);
    // Kept in the outbox file, no longer pending: the person decides.
    expect(outboxIntents()).toHaveLength(1);
    expect(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })).pendingEdits).toBe(0);
    expect(await serviceOrder()).toEqual([a, b]);
    expect(valueOf(await env.core.dispatch('queue.discardRefused', { id: told.edits[0]!.id }))).toEqual([]);
    await waitFor(() => outboxIntents().length === 0, 'the discarded edit to leave the outbox');
    expect(writes().filter((x) => x.status === 201)).toEqual([]);
  });
});
