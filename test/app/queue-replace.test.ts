import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import type { Result } from '../../shared/models.ts';
import { buildServer } from '../../service/server.ts';
import {
  instantTitles,
  recordingFetch,
  setInstantQueue,
  startLiveCore,
  valueOf,
  type Exchange,
  type LiveCoreEnv,
} from './helpers/live-core.ts';

/**
 * queue.replace through the composed core against the real service on loopback: one atomic PUT
 * when the service has bulk replace, else single removes and moves with progress and cancel; a
 * 412 rebased onto another device's change; undo as a new replace. A second device (another token
 * of the same subscriber) writes to the same queue.
 */
let env: LiveCoreEnv;
let t: string[];
/** Every HTTP exchange of the core, in order. */
const exchanges: Exchange[] = [];
/** Runs before the app's nth write (1-based, counted from `writesSeen = 0`), when set. */
let beforeWrite: ((n: number) => Promise<void>) | undefined;
let writesSeen = 0;
/** The service without bulk replace, while the fallback is tested. */
let plain: FastifyInstance | undefined;

const hookedFetch = recordingFetch(exchanges, async (method) => {
  if (method !== 'GET') await beforeWrite?.(++writesSeen);
});

beforeAll(async () => {
  env = await startLiveCore({ core: { fetch: hookedFetch } });
  t = (await instantTitles(env.other, 6)).map((x) => x.ref);
});
afterAll(async () => {
  if (plain) {
    await plain.close();
    await env.startService();
  }
  await env?.close();
});

/** Sets the queue from the other device, lets the app read it, and forgets what happened before. */
async function startWith(refs: string[]): Promise<void> {
  await setInstantQueue(env.other, refs);
  valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));
  exchanges.length = 0;
  env.events.length = 0;
  writesSeen = 0;
  beforeWrite = undefined;
}

const order = (q: { items: Array<{ ref: string }> }) => q.items.map((i) => i.ref);
const serviceOrder = async () => order(await env.other.queue('instant'));
const writes = () => exchanges.filter((x) => x.method !== 'GET');
const progress = () => env.events.filter((e) => e.event === 'queue.progress').map((e) => e.payload);
const conflicts = () => env.events.filter((e) => e.event === 'queue.conflict').map((e) => e.payload);
const replace = async (refs: string[]) =>
  valueOf(await env.core.dispatch('queue.replace', { kind: 'instant', refs })) as SyncedQueue;
const CHANGE_NOTICE = 'The queue changed on another device; your change was applied to the new order.';

describe('with bulk replace: one atomic PUT', () => {
  it('makes the available part the list given, in order; titles left out leave; one progress event', async () => {
    const [a, b, c, d, e] = t as [string, string, string, string, string];
    await startWith([a, b, c, d, e]);

    const queue = await replace([e, c, a]);

    expect(order(queue)).toEqual([e, c, a]);
    expect(queue.pendingEdits).toBe(0);
    expect(await serviceOrder()).toEqual([e, c, a]);
    expect(writes().map((x) => [x.method, x.status])).toEqual([['PUT', 200]]);
    expect(progress()).toEqual([{ kind: 'instant', done: 1, total: 1, method: 'replace', finished: true }]);
    expect(conflicts()).toEqual([]);
  });

  it('a 412 (another device changed the queue): rebased onto the fresh queue, applied, with a quiet notice', async () => {
    const [a, b, c, d] = t as [string, string, string, string];
    await startWith([a, b, c]);
    // The other device removes b and adds d: [a, c, d]. The app still shows [a, b, c].
    const fresh = await env.other.queue('instant');
    const { etag } = await env.other.queueRemove(fresh.items.find((i) => i.ref === b)!.itemRef, fresh.etag);
    await env.other.queueAdd('instant', d, etag);

    const queue = await replace([c, b, a]); // the user reverses what they see

    // b was removed elsewhere: gone; d was added elsewhere after c: it stays after c.
    expect(order(queue)).toEqual([c, d, a]);
    expect(await serviceOrder()).toEqual([c, d, a]);
    expect(writes().map((x) => [x.method, x.status])).toEqual([
      ['PUT', 412],
      ['PUT', 200],
    ]);
    expect(conflicts()).toEqual([{ kind: 'instant', message: CHANGE_NOTICE, applied: true }]);
  });

  it('undo is a new replace against the current queue: another device’s title stays', async () => {
    const [a, b, c, d] = t as [string, string, string, string];
    await startWith([a, b, c]);
    const before = order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })));
    expect(order(await replace([c, b, a]))).toEqual([c, b, a]); // a sort
    const now = await env.other.queue('instant');
    await env.other.queueAdd('instant', d, now.etag); // meanwhile: [c, b, a, d]

    const undone = await replace(before); // undo: back to [a, b, c]

    expect(order(undone)).toEqual([a, d, b, c]); // d keeps its neighbour a
    expect(await serviceOrder()).toEqual([a, d, b, c]);
  });

  it('cancel withdraws a replace still waiting in the outbox (offline): nothing of it is made', async () => {
    const [a, b, c] = t as [string, string, string];
    await startWith([a, b, c]);
    await env.stopService();
    try {
      const waiting = await replace([c, b, a]);
      expect([order(waiting), waiting.pendingEdits]).toEqual([[c, b, a], 1]);
      const after = valueOf(await env.core.dispatch('queue.cancelBulk', { kind: 'instant' }));
      expect([order(after), after.pendingEdits]).toEqual([[a, b, c], 0]);
    } finally {
      await env.startService();
    }
    // Nothing left to replay: the outbox file no longer holds it.
    expect(
      (JSON.parse(readFileSync(join(env.dir, 'queue-outbox.json'), 'utf8')) as { entries: unknown[] }).entries,
    ).toEqual([]);
    expect(await serviceOrder()).toEqual([a, b, c]);
    expect(writes().filter((x) => x.status !== 0)).toEqual([]);
  });

  it('an empty list empties the available part by removes (a PUT must name a title)', async () => {
    const [a, b] = t as [string, string];
    await startWith([a, b]);
    expect(order(await replace([]))).toEqual([]);
    expect(await serviceOrder()).toEqual([]);
    expect(writes().map((x) => [x.method, x.status])).toEqual([
      ['DELETE', 200],
      ['DELETE', 200],
    ]);
  });

  it('a replace that changes nothing writes nothing and closes its progress', async () => {
    const [a, b] = t as [string, string];
    await startWith([a, b]);
    expect(order(await replace([a, b]))).toEqual([a, b]);
    expect(writes()).toEqual([]);
    expect(progress()).toEqual([{ kind: 'instant', done: 0, total: 0, method: 'replace', finished: true }]);
  });
});

describe('without bulk replace: single removes and moves', () => {
  beforeAll(async () => {
    await env.stopService();
    plain = buildServer({ db: env.svc.db, baseUrl: env.svc.url, bulkReplace: false });
    await plain.listen({ port: Number(new URL(env.svc.url).port), host: '127.0.0.1' });
    await env.restartCore(); // a new session: bulk support not yet known
  });

  it('detects the missing PUT (405), then removes and moves one at a time with If-Match, progress after each', async () => {
    const [a, b, c, d, e] = t as [string, string, string, string, string];
    await startWith([a, b, c, d, e]);

    const queue = await replace([e, d, c, a]); // b leaves; the rest reversed

    expect(order(queue)).toEqual([e, d, c, a]);
    expect(await serviceOrder()).toEqual([e, d, c, a]);
    const sent = writes();
    expect(sent.slice(0, 2).map((x) => x.status)).toEqual([405, 405]); // PUT, then PUT by method override
    const steps = sent.slice(2);
    expect(steps.map((x) => x.method)).toEqual(['DELETE', 'POST', 'POST', 'POST']); // remove b, then 3 moves
    expect(steps.every((x) => x.status === 200 || x.status === 201)).toBe(true);
    expect(new Set(steps.map((x) => x.ifMatch)).size).toBe(steps.length); // each on the etag the last one answered
    expect(progress()).toEqual(
      [1, 2, 3, 4].map((done) => ({ kind: 'instant', done, total: 4, method: 'moves', finished: done === 4 })),
    );

    // The answer is remembered: the next replace goes straight to moves.
    writesSeen = 0;
    exchanges.length = 0;
    expect(order(await replace([a, c, d, e]))).toEqual([a, c, d, e]);
    expect(writes().some((x) => x.method === 'PUT' || x.status === 405)).toBe(false);
  });

  it('cancel stops after the current step: the queue shows the steps made, and says how far it got', async () => {
    const [a, b, c, d, e, f] = t as [string, string, string, string, string, string];
    await startWith([a, b, c, d, e, f]);
    let cancelled: Promise<Result<unknown>> | undefined;
    const stop = env.core.on('queue.progress', (p) => {
      if (p.done === 2 && !p.finished) cancelled = env.core.dispatch('queue.cancelBulk', { kind: 'instant' });
    });
    try {
      const queue = await replace([f, e, d, c, b, a]); // 5 moves planned

      // f stays; e, d, c, b, a each go after the one before them. Two made: e, then d.
      expect(order(queue)).toEqual([a, b, c, f, e, d]);
      expect(await serviceOrder()).toEqual([a, b, c, f, e, d]);
      expect(order(valueOf((await cancelled!) as Result<SyncedQueue>))).toEqual([a, b, c, f, e, d]);
      expect(writes()).toHaveLength(2);
      expect(progress().at(-1)).toEqual({ kind: 'instant', done: 2, total: 5, method: 'moves', finished: true });
      expect(conflicts()).toEqual([
        {
          kind: 'instant',
          message: 'You stopped the change after 2 of 5 steps; the queue shows the steps made.',
          applied: false,
        },
      ]);
    } finally {
      stop();
    }
  });

  it('a 412 in the middle of the moves: the rest is rebased onto the other device’s change', async () => {
    const [a, b, c, d, e, f] = t as [string, string, string, string, string, string];
    await startWith([a, b, c, d, e]);
    beforeWrite = async (n) => {
      if (n !== 2) return;
      const now = await env.other.queue('instant');
      await env.other.queueAdd('instant', f, now.etag); // another device adds f at the end
    };

    const queue = await replace([e, d, c, b, a]);

    // After the first move (d after e) the queue was [a, b, c, e, d]; f came in after d, and stays after d.
    expect(order(queue)).toEqual([e, d, f, c, b, a]);
    expect(await serviceOrder()).toEqual([e, d, f, c, b, a]);
    expect(writes().map((x) => x.status)).toContain(412);
    expect(conflicts()).toEqual([{ kind: 'instant', message: CHANGE_NOTICE, applied: true }]);
    const last = progress().at(-1)!;
    expect(last).toMatchObject({ method: 'moves', finished: true });
    expect(last.done).toBe(last.total);
  });

  it('a single move rebased on a 412 says so', async () => {
    const [a, b, c] = t as [string, string, string];
    await startWith([a, b, c]);
    await env.other.queueMove('instant', c, 1, (await env.other.queue('instant')).etag); // [c, a, b]

    const queue = valueOf(await env.core.dispatch('queue.move', { kind: 'instant', ref: a, position: 3 }));

    expect(order(queue)).toEqual([c, b, a]);
    expect(conflicts()).toEqual([
      {
        kind: 'instant',
        message: 'The queue changed on another device; your move was applied to the new order.',
        applied: true,
      },
    ]);
  });
});
