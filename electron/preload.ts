import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, IPC_EVENT_CHANNEL, type EventName } from '../shared/ipc.ts';
import type { Result } from '../shared/models.ts';
import { createBridge, createEventHub } from './bridge.ts';

/**
 * Bundled to dist/preload.cjs (a sandboxed preload is CommonJS and may not require app files).
 * Exposes `window.marquee`, derived from the operation table, and nothing else.
 */
const events = createEventHub();
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, name: EventName, payload: unknown) => events.emit(name, payload));

const marquee = createBridge(
  (name, input) => ipcRenderer.invoke(IPC_CHANNEL, name, input) as Promise<Result<unknown>>,
  events.subscribe,
);

contextBridge.exposeInMainWorld('marquee', marquee);
