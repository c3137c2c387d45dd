import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CHANNEL, IPC_EVENT_CHANNEL, OPERATION_NAMES } from '../../shared/ipc.ts';

/**
 * The preload as Electron loads it: one CommonJS bundle (built by scripts/build.mjs)
 * run in a sandbox where `require` offers only 'electron'. Electron itself is the one fake here.
 */
describe('the bundled preload', () => {
  let dir: string;
  let code: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-preload-'));
    const outfile = join(dir, 'preload.cjs');
    // The build script itself, so the test sees the file the app ships.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- `as string` keeps tsc from resolving an untyped .mjs
    const build = (await import('../../scripts/build.mjs' as string)) as {
      buildPreload(outfile: string): Promise<void>;
    };
    await build.buildPreload(outfile);
    code = readFileSync(outfile, 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function load() {
    const exposed: Array<[string, Record<string, unknown>]> = [];
    const invoked: unknown[][] = [];
    const onHandlers: Array<(...args: unknown[]) => void> = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push([key, api]) },
      ipcRenderer: {
        invoke: (...args: unknown[]) => {
          invoked.push(args);
          return Promise.resolve({ ok: true, value: 'answer' });
        },
        on: (channel: string, handler: (...args: unknown[]) => void) => {
          if (channel === IPC_EVENT_CHANNEL) onHandlers.push(handler);
        },
      },
    };
    const required: string[] = [];
    const module = { exports: {} };
    runInNewContext(code, {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return electron;
      },
    });
    return { exposed, invoked, onHandlers, required };
  }

  it('requires nothing but electron and exposes exactly window.marquee', () => {
    const { exposed, required } = load();
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(exposed.map(([key]) => key)).toEqual(['marquee']);
    expect(Object.keys(exposed[0]![1]).sort()).toEqual([...OPERATION_NAMES, 'on'].sort());
  });

  it('sends each operation over the one IPC channel and relays events to listeners', async () => {
    const { exposed, invoked, onHandlers } = load();
    const api = exposed[0]![1] as Record<string, (...args: unknown[]) => unknown>;
    await expect(api['catalog.search']!({ term: 'matrix' })).resolves.toEqual({ ok: true, value: 'answer' });
    expect(invoked).toEqual([[IPC_CHANNEL, 'catalog.search', { term: 'matrix' }]]);
    const seen: unknown[] = [];
    const off = api.on!('auth.changed', (payload: unknown) => seen.push(payload)) as () => void;
    onHandlers[0]!({}, 'auth.changed', { signedIn: true });
    off();
    onHandlers[0]!({}, 'auth.changed', { signedIn: false });
    expect(seen).toEqual([{ signedIn: true }]);
    expect(() => api.on!('no.such.event', () => {})).toThrow(/unknown event/);
  });
});
