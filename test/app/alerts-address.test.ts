import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { createCore } from '../../electron/core/compose.ts';
import { ensureDefaultProfile, openNodeSettings, type StoredAlerts } from '../../electron/core/settings/index.ts';
import { buildServer } from '../../service/server.ts';
import { runCommand } from '../../service/cli/index.ts';
import type { Alert, AlertList } from '../../shared/alerts.ts';
import { freePort } from '../helpers/postgres-server.ts';
import { within } from '../helpers/within.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { movieIds } from '../helpers/catalog-picks.ts';

/**
 * Alerts are told once for life, whatever address the service has: the same data served on a new
 * port at each of three restarts of the core (same user-data folder) adds no alert and changes
 * neither the list nor the unread count, and every alert's title is read at the current address.
 * A document kept by an older version (titles by ref, with the address of the launch that saw
 * them, told again under each) is migrated on load: each event once, nothing told again.
 */
let env: LiveCoreEnv;
let core: AppCore;
/** The service's current listener and address (the first one is the live core's own). */
let moved: FastifyInstance | null = null;
let url: string;
const told: Alert[] = [];
let playing: number;
let waiting: number;

const now = () => Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
const pathOf = (id: number) => `/catalog/titles/movies/${id}`;
const ours = (alerts: readonly Alert[]) =>
  alerts.filter((a) => a.ref.endsWith(pathOf(playing)) || a.ref.endsWith(pathOf(waiting)));
const list = async (): Promise<AlertList> => valueOf(await core.dispatch('alerts.list', {}));
const check = async () => valueOf(await core.dispatch('alerts.check', {}));

async function setWindow(id: number, from: string, until: string): Promise<void> {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  expect(await runCommand(env.svc.db, ['catalog', 'availability', String(id), '--from', from, '--until', until])).toBe(
    0,
  );
  vi.restoreAllMocks();
}

/** A core on the live core's user-data folder whose embedded profile points at `baseUrl`. */
function coreAt(baseUrl: string): AppCore {
  const settings = openNodeSettings({ dir: env.dir, onWarning: () => {} });
  ensureDefaultProfile(settings, {
    baseUrl,
    consumerKey: env.svc.consumer.key,
    consumerSecret: env.svc.consumer.secret,
  });
  const made = createCore({
    userDataDir: env.dir,
    settings,
    openExternal: () => {
      throw new Error('no browser in this test');
    },
    log: () => {},
    watchAlerts: false,
  });
  made.on('alerts.new', (news) => told.push(...news.alerts));
  return made;
}

/** Stops the core and the service, then serves the same data at a new port and starts a core there. */
async function restartAtNewAddress(): Promise<void> {
  await within(core.close(), 'the core to close');
  await within(moved ? moved.close() : env.stopService(), 'the service to stop');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  moved = buildServer({ db: env.svc.db, baseUrl: url });
  await within(moved.listen({ port, host: '127.0.0.1' }), 'the service to listen at its new address');
  core = coreAt(url);
}

beforeAll(async () => {
  env = await startLiveCore();
  core = coreAt(env.svc.url);
  await env.core.close(); // the helper's own core: this file makes its own, at each address
  url = env.svc.url;
  [playing, waiting] = (await movieIds(env.svc.db, 2, 10)) as [number, number];
  await setWindow(playing, '2020-01-01', 'never');
  await setWindow(waiting, '2035-01-01', 'never');
  const queue = await env.other.queue('instant', { max: 500 });
  let etag = queue.etag;
  for (const item of queue.items) etag = (await env.other.queueRemove(item.itemRef, etag)).etag;
  etag = (await env.other.queueAdd('instant', `${url}${pathOf(playing)}`, etag)).etag;
  await env.other.queueAdd('instant', `${url}${pathOf(waiting)}`, etag);
  await check(); // the saved title is seen waiting
  await setWindow(waiting, iso(now() - 60), 'never');
  await setWindow(playing, '2020-01-01', iso(now() + 3 * 86_400));
  await check();
  expect(
    ours(told)
      .map((a) => a.kind)
      .sort(),
  ).toEqual(['available', 'leaving']);
});

afterAll(async () => {
  await core?.close();
  await moved?.close();
  await env?.close();
});

/** The list as a person sees it, without the address its refs carry. */
const seen = (l: AlertList) => ({
  unread: l.unread,
  alerts: l.alerts.map(({ ref, ...rest }) => ({ ...rest, path: new URL(ref).pathname })),
});

it('three restarts, each at a new address: nothing told again, the list and unread count unchanged', async () => {
  const before = seen(await list());
  expect(before.alerts.map((a) => a.kind).sort()).toEqual(['available', 'leaving']);
  for (let restart = 1; restart <= 3; restart++) {
    await restartAtNewAddress();
    await check();
    await check();
    const after = await list();
    expect(seen(after), `after restart ${restart}`).toEqual(before);
    expect(ours(told)).toHaveLength(2);
    // Each title is read at the current address: the alert opens its title.
    for (const alert of ours(after.alerts)) {
      expect(alert.ref.startsWith(`${url}/`)).toBe(true);
      expect(valueOf(await core.dispatch('catalog.title', { ref: alert.ref })).ref).toBe(alert.ref);
    }
  }
});

it('moving a title to the top from its alert works at the new address', async () => {
  const leaving = ours((await list()).alerts).find((a) => a.kind === 'leaving')!;
  const queue = valueOf(await core.dispatch('queue.move', { kind: 'instant', ref: leaving.ref, position: 1 }));
  expect(queue.items[0]?.ref).toBe(leaving.ref);
});

it("a version 1 document (refs with the launch's address, one event told under two) is migrated on load", async () => {
  const before = seen(await list());
  await within(core.close(), 'the core to close');
  const settings = openNodeSettings({ dir: env.dir, onWarning: () => {} });
  const current = settings.getAlerts();
  const addressed = (path: string, port: number) => `http://127.0.0.1:${port}${path}`;
  const old = structuredClone(current) as unknown as Record<string, unknown> & StoredAlerts;
  delete (old as { version?: number }).version;
  for (const account of Object.values(old.accounts)) {
    account.observed = Object.fromEntries(
      Object.entries(account.observed).map(([key, o]) => [key.replace(/ \/catalog/, ' http://127.0.0.1:1/catalog'), o]),
    );
    account.seen = account.seen.flatMap((id) => [1, 2].map((p) => id.replace(/ \//, ` http://127.0.0.1:${p}/`)));
    const alerts = account.alerts.map(({ path, ...a }) => ({
      ...a,
      id: a.id.replace(/ \//, ' http://127.0.0.1:1/'),
      ref: addressed(path, 1),
    }));
    // The same events told again by a later launch at another address, unread.
    const again = alerts.map((a) => ({
      ...a,
      id: a.id.replace(':1/', ':2/'),
      ref: a.ref.replace(':1/', ':2/'),
      read: false,
    }));
    account.alerts = [...alerts, ...again] as unknown as typeof account.alerts;
  }
  settings.setAlerts(old);
  expect(JSON.stringify(openNodeSettings({ dir: env.dir, onWarning: () => {} }).getAlerts())).not.toContain(
    '127.0.0.1:2',
  );

  core = coreAt(url);
  expect(seen(await list())).toEqual(before);
  await check();
  expect(seen(await list())).toEqual(before);
  expect(ours(told)).toHaveLength(2);
});
