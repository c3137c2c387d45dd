import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, IPC_EVENT_CHANNEL, type EventName } from '../shared/ipc.ts';
import type { Result } from '../shared/models.ts';
import { createBridge } from './bridge.ts';

/**
 * Bundled to dist/preload.cjs (a sandboxed preload is CommonJS and may not require app files).
 * Exposes `window.marquee`, derived from the operation table, and nothing else.
 */
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, name: EventName, payload: unknown) => {
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

const marquee = createBridge(
  (name, input) => ipcRenderer.invoke(IPC_CHANNEL, name, input) as Promise<Result<unknown>>,
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => void set.delete(listener);
  },
);

contextBridge.exposeInMainWorld('marquee', marquee);
