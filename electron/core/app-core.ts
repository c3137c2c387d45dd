import type { EventName, Events, OperationName, OperationResult } from '../../shared/ipc.ts';
import type { Result } from '../../shared/models.ts';
import type { SaveFile } from './export/index.ts';
import type { ElectronStoreConstructor, SafeStorageLike } from './settings/index.ts';

/**
 * The seam between the app's core (compose.ts and the rooms it wires) and its hosts: Electron's
 * main process and the web host. Both only dispatch operations, relay events and close it.
 * Types only: nothing here runs.
 */
export interface AppCore {
  /** Runs one operation. The host validates `input` against its schema first; dispatch checks it again (defence in depth). */
  dispatch<N extends OperationName>(name: N, input: unknown): Promise<Result<OperationResult<N>>>;
  /** Subscribes to an event the core pushes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /** Flushes what must be kept (settings, cache, outbox) and stops timers. */
  close(): Promise<void>;
}

/** The embedded service as its host started it: the default profile points at it. */
export interface EmbeddedServiceInfo {
  /** http://127.0.0.1:<port>, the base URL of its ids and links. */
  url: string;
  /** The demo consumer it registered on first start. */
  consumer: { key: string; secret: string };
  /** The demo subscriber's sign-in, when the service printed it. */
  demoSignIn?: { login: string; password: string } | undefined;
}

/** What a host hands the core when it creates it. */
export interface CoreEnvironment {
  /** The app's user-data folder: settings, tokens and the ETag cache live under it. */
  userDataDir: string;
  embeddedService: EmbeddedServiceInfo;
  /**
   * Opens the sign-in page in the system browser. The host refuses any URL but the sign-in URL of
   * the active profile (see electron/window-options.ts `isSignInUrl`).
   */
  openExternal(url: string): Promise<boolean | void>;
  /** 'electron' (electron-store + safeStorage) or 'node' (conf, tokens not encrypted). */
  host: 'electron' | 'node';
  /** Electron's safeStorage, passed in by main so the core never imports 'electron'. */
  secretCipher?: SafeStorageLike;
  /** electron-store's default export ('electron' host), passed in by main: it imports 'electron'. */
  settingsStore?: ElectronStoreConstructor;
  /** Saves an export where the person chooses (Electron's save dialog); absent: the renderer downloads it. */
  saveFile?: SaveFile;
  /** CoreOptions.watchAlerts (false: the availability watcher checks only when asked; the web host's MARQUEE_WATCH_ALERTS=0). */
  watchAlerts?: boolean;
  /** CoreOptions.liveUpdates (default true: the change stream is held; the web host's MARQUEE_LIVE_UPDATES=0). */
  liveUpdates?: boolean;
}
