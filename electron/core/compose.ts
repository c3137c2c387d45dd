import { join } from 'node:path';
import { Account, accountKey, checkProfile, CoreEvents, createDispatch, createOperations } from './api/index.ts';
import { alertOperations, createAlertWatcher } from './alerts/index.ts';
import type { AppCore, CoreEnvironment } from './app-core.ts';
import { AuthSession } from './auth/index.ts';
import { createClient } from './client/index.ts';
import type { ErrorLog } from './errors.ts';
import { exportOperations, type SaveFile } from './export/index.ts';
import { importOperations } from './import/index.ts';
import { createLiveUpdates } from './live/index.ts';
import { createQueueSync, openQueueOutbox } from './queue/index.ts';
import { ensureDefaultProfile, openHostSettings, type SettingsStore } from './settings/index.ts';
import { createTransport, openEtagCache } from './transport/index.ts';
import { ServiceError, type SigningContext, type Transport } from './types.ts';

/**
 * The composition root of the app's core, the one place that wires its rooms: settings → auth
 * (tokens) → transport (signing, ETag cache, connectivity, quota) → client → queue sync, and
 * shared/ipc.ts's operations (api/) on top.
 * `dispatch` never throws: every outcome is a Result; unexpected errors are logged and reported as
 * kind 'server' with a generic message.
 *
 * Queue edits (queue.add/move/remove) resolve with the queue after the write. Offline they resolve
 * with the optimistic queue (the last one read, with the waiting edits applied) whose
 * `pendingEdits` is > 0; the edits replay when the service is back ('queue.changed' then tells the
 * app), and 'connectivity.changed' carries the count meanwhile.
 */
export interface CoreOptions {
  /** Where the ETag cache and the queue outbox live. */
  userDataDir: string;
  settings: SettingsStore;
  /** Opens the sign-in page in the system browser; false (or a throw) when none opened: the sign-in then waits for a PIN. */
  openExternal(url: string): Promise<boolean | void> | boolean | void;
  /** Created (or updated) as the 'embedded' profile and made active when none is. */
  defaultProfile?: { baseUrl: string; consumerKey: string; consumerSecret: string; label?: string };
  fetch?: typeof fetch;
  now?: () => number;
  log?: ErrorLog;
  /** Backoff of the outbox probe while edits wait offline (default 1 s doubling to 60 s). */
  outboxRetry?: { baseMs?: number; maxMs?: number };
  /** Sign-in timeout (default 5 minutes). */
  signInTimeoutMs?: number;
  /** Saves an export where the person chooses (Electron's dialog); absent: the renderer downloads it. */
  saveFile?: SaveFile;
  /**
   * Whether the availability watcher checks on its own (start, sign-in, focus, interval); default
   * true. Off, it checks only when asked (`alerts.check`): tests that count a session's requests.
   */
  watchAlerts?: boolean;
  /**
   * Whether the core holds the account's change stream (live/); default as `watchAlerts`, so a
   * test that counts a session's requests sees none it did not ask for.
   */
  liveUpdates?: boolean;
}

/**
 * With CoreOptions (tests, custom hosts): the core, synchronously. With a host's CoreEnvironment
 * (electron/core-loader.ts): opens the host's settings, ensures the embedded profile, then the same.
 */
export function createCore(options: CoreOptions): AppCore;
export function createCore(env: CoreEnvironment): Promise<AppCore>;
export function createCore(options: CoreOptions | CoreEnvironment): AppCore | Promise<AppCore> {
  if ('settings' in options) return composeCore(options);
  const env = options;
  // In a `then`, so settings that cannot be opened reject the promise rather than throw.
  return Promise.resolve().then(() => {
    const settings = openHostSettings({
      host: env.host,
      userDataDir: env.userDataDir,
      ...optional({ secretCipher: env.secretCipher, settingsStore: env.settingsStore }),
      onWarning: (m) => console.warn(`[marquee] ${m}`),
    });
    const { url, consumer } = env.embeddedService;
    return composeCore({
      userDataDir: env.userDataDir,
      settings,
      openExternal: (u) => env.openExternal(u),
      defaultProfile: { baseUrl: url, consumerKey: consumer.key, consumerSecret: consumer.secret },
      ...optional({ saveFile: env.saveFile, watchAlerts: env.watchAlerts }),
      // The hosts listen whatever the alerts watcher does.
      liveUpdates: env.liveUpdates ?? true,
    });
  });
}

function composeCore(options: CoreOptions): AppCore {
  const { settings } = options;
  const log: ErrorLog = options.log ?? ((m, e) => console.error(`[marquee] ${m}:`, e));
  if (options.defaultProfile) ensureDefaultProfile(settings, options.defaultProfile);
  const events = new CoreEvents(log);
  let account: Account | undefined; // built last: it follows the client and the queue sync

  const caches = openEtagCache({
    dir: join(options.userDataDir, 'etag-cache'),
    addresses: (namespace) => addressOf(settings, namespace),
  });
  const transport = createTransport({
    getContext: () => signingContextOf(auth),
    // Per account, so one subscriber's answers never serve another's; signed out: per profile.
    cache: () => caches.forUser(accountKey(settings, auth) ?? `${settings.getActiveProfileId()}:`),
    onQuota: (e) => events.emit('quota.exceeded', { retryAfter: e.retryAfter ?? 0, message: e.message }),
    onConnectivity: (online) => sync.setOnline(online),
    ...optional({ fetch: options.fetch, now: options.now }),
  });
  // The token calls of a sign-in go through the same transport: one signing path, one clock.
  const auth = new AuthSession(settings, {
    openExternal: (url) => options.openExternal(url),
    transport,
    // A sign-in waiting for the subscriber is part of AuthStatus; its end is announced by the operation that awaited it.
    onPending: (pending) =>
      void (pending && account?.changed().catch((error: unknown) => log('Announcing a pending sign-in', error))),
    ...optional({ now: options.now, timeoutMs: options.signInTimeoutMs }),
  });
  const client = createClient(transport, { baseUrl: () => settings.getActiveProfile()?.baseUrl ?? '' });
  const sync = createQueueSync({
    client,
    outbox: openQueueOutbox(join(options.userDataDir, 'queue-outbox.json'), (m) => log('Queue outbox', m)),
    account: () => accountKey(settings, auth),
    addressOf: (acct) => addressOf(settings, acct),
    emit: (event, payload) => events.emit(event, payload),
    log,
    ...optional({ now: options.now, retry: options.outboxRetry }),
  });
  const acct = (account = new Account({ settings, auth, client, sync, caches, events }));

  const baseUrl = () => settings.getActiveProfile()?.baseUrl ?? '';
  const watcher = createAlertWatcher({
    client,
    settings,
    account: () => accountKey(settings, auth),
    notify: (news) => events.emit('alerts.new', news),
    log,
    ...optional({ now: options.now }),
  });
  const operations = {
    ...createOperations({
      settings,
      auth,
      client,
      sync,
      status: () => acct.status(),
      authChanged: () => acct.changed(),
      checkProfile: (p) => checkProfile(p, optional({ fetch: options.fetch, now: options.now })),
      revokeAccess: () => revokeAccessToken(transport, settings),
    }),
    ...importOperations({
      client,
      sync,
      transport,
      baseUrl,
      progress: (p) => events.emit('import.progress', p),
      ...optional({ now: options.now }),
    }),
    ...exportOperations({
      client,
      sync,
      transport,
      baseUrl,
      ...optional({ saveFile: options.saveFile, now: options.now }),
    }),
    ...alertOperations(watcher),
  };
  // Another device's change, pushed by the service: revalidated through the ETag cache, then told to the renderer.
  const watchAlerts = options.watchAlerts ?? true;
  const live = createLiveUpdates({
    signingContext: () => auth.signingContext(),
    account: () => accountKey(settings, auth),
    queues: {
      knownEtag: (kind) => sync.current(kind)?.etag,
      settled: () => sync.idle(),
      read: (kind) => sync.read(kind),
    },
    changed: (payload) => events.emit('live.changed', payload),
    // Only when the watcher watches on its own: a check reads every queued title.
    catalogChanged: () => void (watchAlerts && watcher.check()),
    // Signed on the transport's clock: a skew it learnt (or learns on a refusal) holds for the stream too.
    clock: {
      timestamp: () => transport.oauthTimestamp(),
      correct: (ctx, signal) => transport.correctClock(ctx, signal),
    },
    log,
    ...optional({ fetch: options.fetch }),
  });
  if (options.liveUpdates ?? watchAlerts) {
    events.on('auth.changed', () => live.follow());
    live.follow();
  }
  acct.follow();
  const dispatch = createDispatch({ operations, log, signedIn: () => (acct.follow(), acct.key() !== null) });
  // Alerts are checked on start, on every sign-in, and then every interval (and on focus, asked by the window).
  if (watchAlerts) {
    events.on('auth.changed', (status) => void (status.signedIn && watcher.check()));
    watcher.start();
  }

  return {
    dispatch,
    on: (event, listener) => events.on(event, listener),
    async close() {
      watcher.close();
      live.close();
      auth.cancel();
      await sync.close();
    },
  };
}

/** The address now and the older ones of the profile an account (`${profileId}:${userId}`) belongs to. */
function addressOf(settings: SettingsStore, acct: string): { current: string; former: string[] } | null {
  const profileId = acct.slice(0, acct.indexOf(':'));
  const profile = settings.getProfile(profileId);
  return profile ? { current: profile.baseUrl, former: settings.formerBaseUrls(profileId) } : null;
}

/** What the transport signs with: the active profile's consumer and token. */
function signingContextOf(auth: AuthSession): SigningContext {
  const ctx = auth.signingContext();
  if (!ctx)
    throw new ServiceError({ kind: 'invalid', message: 'No service profile is active: choose one in Settings.' });
  return ctx;
}

/**
 * Sign-out's courtesy to the service: `POST /oauth/revoke` signed with the access token (an
 * extension, docs/API.md). Best effort: offline, a refusal or an older service without it (404)
 * change nothing; the token is forgotten locally either way.
 */
async function revokeAccessToken(transport: Transport, settings: SettingsStore): Promise<void> {
  const baseUrl = settings.getActiveProfile()?.baseUrl;
  if (!baseUrl) return;
  await transport
    .request({
      method: 'POST',
      url: `${baseUrl.replace(/\/+$/, '')}/oauth/revoke`,
      level: 'protected',
      timeoutMs: REVOKE_TIMEOUT_MS,
    })
    .catch(() => undefined);
}

const REVOKE_TIMEOUT_MS = 5_000;

/** The entries of `values` that are set (exactOptionalPropertyTypes: no `undefined` values). */
function optional<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
