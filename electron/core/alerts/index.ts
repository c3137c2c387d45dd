import type { Operations } from '../api/index.ts';
import { AlertWatcher, type WatcherOptions } from './watcher.ts';

/**
 * The alerts room's door: the availability watcher (watcher.ts, over the pure decisions of
 * decide.ts) and shared/ipc.ts's `alerts.*` operations over it. Compose starts it and closes it.
 */
export { AlertWatcher, type WatcherOptions } from './watcher.ts';
export { decide, fresh, keepNewest, observe, watchKey, type AlertDraft, type Watched } from './decide.ts';

export type AlertOperationName =
  | 'alerts.list'
  | 'alerts.markRead'
  | 'alerts.check'
  | 'alerts.settings'
  | 'alerts.setSettings';

export function alertOperations(watcher: AlertWatcher): Pick<Operations, AlertOperationName> {
  return {
    'alerts.list': () => Promise.resolve(watcher.list()),
    'alerts.markRead': ({ ids }) => Promise.resolve(watcher.markRead(ids)),
    'alerts.check': async ({ reason }) => {
      await (reason === 'focus' ? watcher.focused() : watcher.check());
      return watcher.list();
    },
    'alerts.settings': () => Promise.resolve(watcher.settings()),
    'alerts.setSettings': (patch) =>
      Promise.resolve(
        watcher.setSettings(Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))),
      ),
  };
}

/** Builds the watcher (compose.ts wires its client, settings, account and events). */
export function createAlertWatcher(options: WatcherOptions): AlertWatcher {
  return new AlertWatcher(options);
}
