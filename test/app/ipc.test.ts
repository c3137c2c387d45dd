import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridge, createEventHub, createIpcServer } from '../../electron/bridge.ts';
import {
  EVENT_NAMES,
  IPC_CHANNEL,
  IPC_EVENT_CHANNEL,
  type EventName,
  type MarqueeApi,
  type OperationName,
} from '../../shared/ipc.ts';
import type { Result } from '../../shared/models.ts';
import { instantTitles, setInstantQueue, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/**
 * The whole IPC stack in memory, as Electron runs it but without Electron: the renderer's
 * `window.marquee` (createBridge, as electron/preload.ts builds it) → an invoke channel (every
 * message structured-cloned, as Electron does) → main's handler (createIpcServer, as
 * electron/main.ts wires it: sender checked, input validated) → the real core (createCore) →
 * the real service. Events go back the other way on the event channel.
 */

interface WebContents {
  id: number;
}

/** A minimal ipcMain/ipcRenderer pair: one invoke channel, one event channel, one window. */
function memoryIpc() {
  const handlers = new Map<string, (sender: WebContents, ...args: unknown[]) => Promise<unknown>>();
  const windows = new Map<WebContents, Map<string, (...args: unknown[]) => void>>();
  return {
    ipcMain: {
      handle(channel: string, handler: (sender: WebContents, ...args: unknown[]) => Promise<unknown>) {
        handlers.set(channel, handler);
      },
    },
    /** The renderer side of one window (its preload's ipcRenderer). */
    rendererOf(sender: WebContents) {
      const on = new Map<string, (...args: unknown[]) => void>();
      windows.set(sender, on);
      return {
        async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
          const handler = handlers.get(channel);
          if (!handler) throw new Error(`No handler registered for '${channel}'`);
          return structuredClone(await handler(sender, ...structuredClone(args)));
        },
        on(channel: string, listener: (...args: unknown[]) => void) {
          on.set(channel, listener);
        },
      };
    },
    /** webContents.send */
    send(to: WebContents, channel: string, ...args: unknown[]) {
      windows.get(to)?.get(channel)?.(...structuredClone(args));
    },
  };
}

/** What electron/preload.ts does with an ipcRenderer. */
function preload(ipcRenderer: ReturnType<ReturnType<typeof memoryIpc>['rendererOf']>): MarqueeApi {
  const events = createEventHub();
  ipcRenderer.on(IPC_EVENT_CHANNEL, (name, payload) => events.emit(name as EventName, payload));
  return createBridge(
    (name, input) => ipcRenderer.invoke(IPC_CHANNEL, name, input) as Promise<Result<unknown>>,
    events.subscribe,
  );
}

let env: LiveCoreEnv;
let marquee: MarqueeApi;
let stranger: MarqueeApi;
const dispatched: OperationName[] = [];

beforeAll(async () => {
  env = await startLiveCore();
  const ipc = memoryIpc();
  const appWindow: WebContents = { id: 1 };
  const otherFrame: WebContents = { id: 2 };

  // electron/main.ts's wireIpc, on the in-memory ipcMain.
  const server = createIpcServer<WebContents>(
    (name, input) => {
      dispatched.push(name);
      return env.core.dispatch(name, input);
    },
    (sender) => sender === appWindow,
  );
  ipc.ipcMain.handle(IPC_CHANNEL, (sender, name, input) => server.handle(sender, name, input));
  for (const name of EVENT_NAMES) env.core.on(name, (payload) => ipc.send(appWindow, IPC_EVENT_CHANNEL, name, payload));

  marquee = preload(ipc.rendererOf(appWindow));
  stranger = preload(ipc.rendererOf(otherFrame));
});
afterAll(() => env?.close());

describe('window.marquee → IPC → core → service', () => {
  it('answers operations as values that survive structured cloning', async () => {
    const status = valueOf(await marquee['auth.status']({}));
    expect(status).toMatchObject({ signedIn: true, profileId: 'embedded', user: { id: env.svc.subscriber.id } });
    const page = valueOf(await marquee['catalog.search']({ term: 'The Matrix', max: 3 }));
    expect(page.items.map((t) => t.title)).toContain('The Matrix');
  });

  it("shows a title in one request and its similars' box art in another, as values", async () => {
    const matrix = valueOf(await marquee['catalog.search']({ term: 'The Matrix', max: 3 })).items.find(
      (t) => t.title === 'The Matrix',
    )!;
    env.exchanges.length = 0;
    const detail = valueOf(await marquee['catalog.title']({ ref: matrix.ref }));
    expect(env.exchanges).toHaveLength(1);
    const similars = valueOf(await marquee['catalog.similars']({ ref: detail.similarsRef! }));
    expect(env.exchanges).toHaveLength(2);
    expect(similars.items.map((t) => t.ref)).toEqual(detail.similars.map((s) => s.ref));
  });

  it('carries a failure as a value with its kind, status and message', async () => {
    const missing = await marquee['catalog.title']({ ref: `${env.svc.url}/catalog/titles/movies/999999999` });
    expect(missing).toMatchObject({
      ok: false,
      error: { kind: 'not_found', status: 404, message: expect.any(String) },
    });
  });

  it('pushes core events to the window: a queue change, as the renderer subscribed', async () => {
    const [a, b] = (await instantTitles(env.other, 2)).map((t) => t.ref) as [string, string];
    await setInstantQueue(env.other, [a]);
    valueOf(await marquee['queue.list']({ kind: 'instant' }));
    const seen: unknown[] = [];
    const off = marquee.on('queue.changed', (payload) => seen.push(payload));
    const queue = valueOf(await marquee['queue.add']({ kind: 'instant', ref: b, position: 1 }));
    expect(queue.items.map((i) => i.ref)).toEqual([b, a]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'instant', queue: { etag: queue.etag } });
    off();
    valueOf(await marquee['queue.remove']({ kind: 'instant', ref: b }));
    expect(seen).toHaveLength(1); // unsubscribed
  });

  it('refuses invalid input in words, in the core, before any request reaches the service', async () => {
    env.exchanges.length = 0;
    const calls: Array<[() => Promise<Result<unknown>>, string]> = [
      [() => marquee['catalog.search']({ term: 'x'.repeat(501) }), 'Search for at most 500 characters.'],
      [() => marquee['catalog.search']({ term: '   ' }), 'Type something to search for.'],
      [() => marquee['queue.move']({ kind: 'instant', ref: 'x', position: 501 }), 'The position may be at most 500.'],
      [
        () => (marquee['queue.add'] as (input: unknown) => Promise<Result<unknown>>)({ kind: 'instant' }),
        'The title or person is missing.',
      ],
      [
        () =>
          marquee['profiles.save']({
            label: 'x',
            baseUrl: 'javascript:alert(1)',
            consumerKey: 'k',
            consumerSecret: 's',
          }),
        'The service address must start with http:// or https://.',
      ],
      [
        () => (marquee['ratings.set'] as (input: unknown) => Promise<Result<unknown>>)({ ref: 'x', rating: '5' }),
        'The rating is not valid.',
      ],
    ];
    for (const [call, words] of calls)
      expect(await call()).toEqual({ ok: false, error: { kind: 'invalid', status: 400, message: words } });
    expect(env.exchanges).toEqual([]);
  });

  it('refuses a sender that is not the app window, whatever it asks', async () => {
    dispatched.length = 0;
    for (const result of [
      await stranger['auth.status']({}),
      await stranger['queue.list']({ kind: 'instant' }),
      await stranger['auth.signOut']({}),
    ]) {
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', status: 403 } });
    }
    expect(dispatched).toEqual([]);
    expect(env.settings.getTokens('embedded')).not.toBeNull(); // the stranger's sign-out did nothing
  });
});
