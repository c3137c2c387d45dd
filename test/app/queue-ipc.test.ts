import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBridge, createEventHub, createIpcServer } from '../../electron/bridge.ts';
import { EVENT_NAMES, type MarqueeApi } from '../../shared/ipc.ts';
import type { QueueProgress, Result } from '../../shared/models.ts';
import { instantTitles, setInstantQueue, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/**
 * queue.replace and queue.cancelBulk as the renderer calls them: window.marquee (createBridge) →
 * an in-memory invoke channel (every message structured-cloned, as Electron does) → main's IPC
 * server → the real core → the real service; 'queue.progress' back on the event channel.
 */
let env: LiveCoreEnv;
let marquee: MarqueeApi;

beforeAll(async () => {
  env = await startLiveCore();
  const appWindow = { id: 1 };
  const server = createIpcServer<typeof appWindow>(
    (name, input) => env.core.dispatch(name, input),
    (sender) => sender === appWindow,
  );
  const events = createEventHub();
  for (const name of EVENT_NAMES) env.core.on(name, (payload) => events.emit(name, structuredClone(payload)));
  const invoke = async (name: string, input: unknown) =>
    structuredClone<Result<unknown>>(await server.handle(appWindow, structuredClone(name), structuredClone(input)));
  marquee = createBridge(invoke, events.subscribe);
});
afterAll(() => env?.close());

it('replaces the queue through window.marquee, with its progress pushed to the window', async () => {
  const [a, b, c] = (await instantTitles(env.other, 3)).map((t) => t.ref) as [string, string, string];
  await setInstantQueue(env.other, [a, b, c]);
  valueOf(await marquee['queue.list']({ kind: 'instant' }));
  const seen: QueueProgress[] = [];
  const off = marquee.on('queue.progress', (p) => seen.push(p));
  try {
    const queue = valueOf(await marquee['queue.replace']({ kind: 'instant', refs: [c, a] }));
    expect(queue.items.map((i) => i.ref)).toEqual([c, a]);
    expect(seen).toEqual([{ kind: 'instant', done: 1, total: 1, method: 'replace', finished: true }]);
    // Nothing under way: cancel changes nothing and answers the queue.
    expect(valueOf(await marquee['queue.cancelBulk']({ kind: 'instant' })).items.map((i) => i.ref)).toEqual([c, a]);
  } finally {
    off();
  }
});

it('refuses a replace of more than 500 titles in words, before any request', async () => {
  env.exchanges.length = 0;
  const refs = Array.from({ length: 501 }, (_, i) => `${env.svc.url}/catalog/titles/movies/${i + 1}`);
  const result = await marquee['queue.replace']({ kind: 'instant', refs });
  expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', status: 400 } });
  expect(env.exchanges).toEqual([]);
});
