import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createClient, type Client } from '../../../electron/core/client/index.ts';
import { createCore, type CoreOptions } from '../../../electron/core/compose.ts';
import type { AppCore } from '../../../electron/core/app-core.ts';
import { ensureDefaultProfile, openNodeSettings, type SettingsStore } from '../../../electron/core/settings/index.ts';
import { createTransport } from '../../../electron/core/transport/index.ts';
import { EVENT_NAMES, type EventName, type Events } from '../../../shared/ipc.ts';
import type { Result, TitleSummary } from '../../../shared/models.ts';
import { buildServer } from '../../../service/server.ts';
import { issueAccessToken } from '../../../service/store/oauth/tokens.ts';
import { startLiveService, type LiveService } from '../../helpers/live-service.ts';
import { within } from '../../helpers/within.ts';
import { urlOf } from '../../helpers/fetch-input.ts';

/** One HTTP exchange the core made (status 0: no answer). */
export interface Exchange {
  method: string;
  url: string;
  ifMatch: string | undefined;
  status: number;
}

/** A fetch that records each exchange in `into` (its status once answered); `before` runs first. */
export function recordingFetch(into: Exchange[], before?: (method: string) => Promise<void>): typeof fetch {
  return async (input, init) => {
    const method = init?.method ?? 'GET';
    await before?.(method);
    const entry: Exchange = {
      method,
      url: urlOf(input),
      ifMatch: new Headers(init?.headers).get('if-match') ?? undefined,
      status: 0,
    };
    into.push(entry);
    const res = await fetch(input, init);
    entry.status = res.status;
    return res;
  };
}

export interface LiveCoreEnv {
  svc: LiveService;
  /** The core's user-data directory (settings, ETag cache, outbox). */
  dir: string;
  settings: SettingsStore;
  core: AppCore;
  /** Every event every core of this env emitted, in order. */
  events: Array<{ [E in EventName]: { event: E; payload: Events[E] } }[EventName]>;
  /** Every HTTP exchange of the core(s). */
  exchanges: Exchange[];
  /** The same subscriber on another device: its own token and client. */
  other: Client;
  /** A new core on the same user-data directory (the old one is closed first). */
  restartCore(): Promise<AppCore>;
  /** Stops the service listening (its database stays); start() listens again on the same port. */
  stopService(): Promise<void>;
  startService(): Promise<void>;
  close(): Promise<void>;
}

export interface LiveCoreOptions {
  /** Store an access token for the embedded profile first (default true). */
  signedIn?: boolean;
  core?: Partial<CoreOptions>;
}

/** The real service on loopback and a core composed by createCore against it. */
export async function startLiveCore(options: LiveCoreOptions = {}): Promise<LiveCoreEnv> {
  const svc = await startLiveService();
  const dir = mkdtempSync(join(tmpdir(), 'marquee-core-'));
  const port = Number(new URL(svc.url).port);
  const exchanges: Exchange[] = [];
  const events: LiveCoreEnv['events'] = [];
  const loggedFetch = recordingFetch(exchanges);

  const target = { baseUrl: svc.url, consumerKey: svc.consumer.key, consumerSecret: svc.consumer.secret };
  const openStore = () => {
    const store = openNodeSettings({ dir, onWarning: () => {} });
    ensureDefaultProfile(store, target);
    return store;
  };
  let settings = openStore();
  if (options.signedIn ?? true) {
    const issued = await issueAccessToken(svc.db, svc.consumer.key, svc.subscriber.id);
    settings.setTokens('embedded', { token: issued.token, secret: issued.secret, userId: svc.subscriber.id });
  }

  const makeCore = () => {
    const core = createCore({
      userDataDir: dir,
      settings,
      openExternal: () => {
        throw new Error('no browser in this test');
      },
      fetch: loggedFetch,
      outboxRetry: { baseMs: 40, maxMs: 200 },
      log: () => {},
      // Tests count the requests an operation makes: the watcher checks only when asked, unless a test turns it on.
      watchAlerts: false,
      ...options.core,
    });
    for (const event of EVENT_NAMES)
      core.on(event, (payload) => events.push({ event, payload } as LiveCoreEnv['events'][number]));
    return core;
  };

  const otherToken = await issueAccessToken(svc.db, svc.consumer.key, svc.subscriber.id);
  const otherTransport = createTransport({
    getContext: () => ({
      baseUrl: svc.url,
      consumer: { key: svc.consumer.key, secret: svc.consumer.secret },
      token: { key: otherToken.token, secret: otherToken.secret },
    }),
  });
  const other = createClient(otherTransport, { baseUrl: () => svc.url });

  let app: FastifyInstance = svc.app;
  let listening = true;
  const env: LiveCoreEnv = {
    svc,
    dir,
    settings,
    events,
    exchanges,
    other,
    core: makeCore(),
    async restartCore() {
      await within(env.core.close(), 'the old core to close');
      settings = openStore();
      env.settings = settings;
      env.core = makeCore();
      return env.core;
    },
    async stopService() {
      await within(app.close(), 'the service to stop listening');
      listening = false;
    },
    async startService() {
      app = buildServer({ db: svc.db, baseUrl: svc.url });
      await within(app.listen({ port, host: '127.0.0.1' }), 'the service to listen again');
      listening = true;
    },
    async close() {
      await env.core.close();
      if (app !== svc.app && listening) await app.close();
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** The value of an ok Result, or a failed test naming the error. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** Titles the instant queue takes right away (available now), with their names. */
export async function instantTitles(client: Client, count: number): Promise<TitleSummary[]> {
  const found = (await client.search('the', { max: 100 })).items.filter(
    (t) => t.formats.includes('instant') && t.type === 'movie',
  );
  if (found.length < count) throw new Error(`only ${found.length} instant titles found`);
  return found.slice(0, count);
}

/** Makes the subscriber's instant queue exactly `refs` (from the other device). */
export async function setInstantQueue(client: Client, refs: string[]): Promise<void> {
  let queue = await client.queue('instant', { max: 500 });
  let etag = queue.etag;
  for (const item of [...queue.items].reverse()) etag = (await client.queueRemove(item.itemRef, etag)).etag;
  for (const ref of refs) etag = (await client.queueAdd('instant', ref, etag)).etag;
  queue = await client.queue('instant', { max: 500 });
  const order = queue.items.map((i) => i.ref);
  if (JSON.stringify(order) !== JSON.stringify(refs)) throw new Error(`queue is ${JSON.stringify(order)}`);
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
