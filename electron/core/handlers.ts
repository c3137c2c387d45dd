import { join } from 'node:path';
import { isOperationName, parseInput, type EventName, type Events, type OperationName, type OperationResult } from '../../shared/ipc.ts';
import type { AuthStatus, Result, User } from '../../shared/models.ts';
import type { AppCore, CoreEnvironment } from './app-core.ts';
import { AuthSession } from './auth.ts';
import { createClient } from './client.ts';
import { toAppError, type ErrorLog } from './errors.ts';
import { openEtagCache } from './etag-cache.ts';
import { createOperations, PROTECTED } from './handlers-ops.ts';
import { checkProfile } from './profile-check.ts';
import { openQueueOutbox } from './queue-outbox.ts';
import { createQueueSync } from './queue-sync.ts';
import { ensureDefaultProfile, openHostSettings, type SettingsStore } from './settings.ts';
import { createTransport } from './transport.ts';
import { ServiceError } from './types.ts';

/**
 * The composition root of the app's core: settings → auth (tokens) → transport (signing, ETag
 * cache, connectivity, quota) → client → queue sync, and shared/ipc.ts's operations on top.
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
  /** Opens the sign-in page in the system browser. */
  openExternal(url: string): Promise<void> | void;
  /** Created (or updated) as the 'embedded' profile and made active when none is. */
  defaultProfile?: { baseUrl: string; consumerKey: string; consumerSecret: string; label?: string };
  fetch?: typeof fetch;
  now?: () => number;
  log?: ErrorLog;
  /** Backoff of the outbox probe while edits wait offline (default 1 s doubling to 60 s). */
  outboxRetry?: { baseMs?: number; maxMs?: number };
  /** Sign-in timeout (default 5 minutes). */
  signInTimeoutMs?: number;
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
  return (async () => {
    const settings = await openHostSettings({ host: env.host, userDataDir: env.userDataDir, secretCipher: env.secretCipher, onWarning: (m) => console.warn(`[marquee] ${m}`) });
    const { url, consumer } = env.embeddedService;
    return composeCore({
      userDataDir: env.userDataDir,
      settings,
      openExternal: (u) => env.openExternal(u),
      defaultProfile: { baseUrl: url, consumerKey: consumer.key, consumerSecret: consumer.secret },
    });
  })();
}

type Listener = (payload: never) => void;

function composeCore(options: CoreOptions): AppCore {
  const { settings } = options;
  const log: ErrorLog = options.log ?? ((m, e) => console.error(`[marquee] ${m}:`, e));
  if (options.defaultProfile) ensureDefaultProfile(settings, options.defaultProfile);

  const listeners = new Map<EventName, Set<Listener>>();
  const emit = <E extends EventName>(event: E, payload: Events[E]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch (error) {
        log(`A listener of ${event} failed`, error);
      }
    }
  };

  const auth = new AuthSession(settings, {
    openExternal: (url) => options.openExternal(url),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
  });
  /** `${profileId}:${userId}` of who is signed in, or null. */
  const account = (): string | null => {
    const profileId = settings.getActiveProfileId();
    const tokens = profileId === null ? null : auth.tokens(profileId);
    return tokens ? `${profileId}:${tokens.userId}` : null;
  };

  const caches = openEtagCache({ dir: join(options.userDataDir, 'etag-cache') });
  const transport = createTransport({
    getContext: () => {
      const ctx = auth.signingContext();
      if (!ctx) throw new ServiceError({ kind: 'invalid', message: 'No service profile is active: choose one in Settings.' });
      return ctx;
    },
    // Per account, so one subscriber's answers never serve another's; signed out: per profile.
    cache: () => caches.forUser(account() ?? `${settings.getActiveProfileId()}:`),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    onQuota: (e) => emit('quota.exceeded', { retryAfter: e.retryAfter ?? 0, message: e.message }),
    onConnectivity: (online) => sync.setOnline(online),
  });
  const client = createClient(transport, { baseUrl: () => settings.getActiveProfile()?.baseUrl ?? '' });
  const sync = createQueueSync({
    client,
    outbox: openQueueOutbox(join(options.userDataDir, 'queue-outbox.json'), (m) => log('Queue outbox', m)),
    account,
    emit,
    log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.outboxRetry ? { retry: options.outboxRetry } : {}),
  });

  // Who the client and the queue sync work for; re-pointed whenever the account changes.
  let pointedAt: string | null | undefined;
  let user: { account: string; user: User } | null = null;
  const follow = () => {
    const now = account();
    if (now === pointedAt) return;
    pointedAt = now;
    user = null;
    const tokens = auth.tokens();
    client.setUser(tokens?.userId ? tokens.userId : null);
    sync.resume();
  };

  const status = async (): Promise<AuthStatus> => {
    follow();
    const profileId = settings.getActiveProfileId() ?? '';
    const acct = account();
    const base = { profileId, secureStorage: settings.secureStorage, pending: null };
    if (acct === null) return { ...base, signedIn: false, user: null };
    if (user?.account === acct) return { ...base, signedIn: true, user: user.user };
    try {
      const current = await client.currentUser();
      if (account() === acct) user = { account: acct, user: current };
      return { ...base, signedIn: true, user: current };
    } catch (error) {
      if (error instanceof ServiceError && error.appError.kind === 'auth' && error.appError.status === 401) {
        // The service no longer accepts the token (revoked, or its database was reset): sign out.
        auth.signOut(profileId);
        await caches.removeUser(acct).catch(() => undefined);
        return authChanged();
      }
      if (error instanceof ServiceError) return { ...base, signedIn: true, user: null }; // offline: still signed in
      throw error;
    }
  };

  let announced = '';
  const authChanged = async (): Promise<AuthStatus> => {
    const before = pointedAt;
    follow();
    if (before && before !== pointedAt && !account()) await caches.removeUser(before).catch(() => undefined);
    const now = await status();
    const text = JSON.stringify(now);
    if (text !== announced) {
      announced = text;
      emit('auth.changed', now);
    }
    return now;
  };

  const checkProfileOptions = { ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.now ? { now: options.now } : {}) };
  const operations = createOperations({ settings, auth, client, sync, status, authChanged, checkProfile: (p) => checkProfile(p, checkProfileOptions) });
  follow();

  return {
    async dispatch<N extends OperationName>(name: N, input: unknown): Promise<Result<OperationResult<N>>> {
      try {
        if (!isOperationName(name)) return { ok: false, error: { kind: 'invalid', status: 404, message: `Unknown operation: ${String(name).slice(0, 100)}` } };
        const parsed = parseInput(name, input);
        if (!parsed.ok) return { ok: false, error: { kind: 'invalid', status: 400, message: `Invalid input for ${name}: ${parsed.message}` } };
        follow();
        if (PROTECTED.has(name) && account() === null) {
          return { ok: false, error: { kind: 'auth', message: 'You are not signed in: sign in to see your queues, ratings and history.' } };
        }
        const run = operations[name] as (input: unknown) => Promise<OperationResult<N>>;
        return { ok: true, value: await run(parsed.value) };
      } catch (error) {
        return { ok: false, error: toAppError(error, log, name) };
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as Listener;
      set.add(entry);
      return () => void set.delete(entry);
    },
    async close() {
      auth.cancel();
      await sync.close();
    },
  };
}
