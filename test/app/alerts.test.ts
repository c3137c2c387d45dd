import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { runCommand } from '../../service/cli/index.ts';
import type { Alert } from '../../shared/alerts.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { movieIds } from '../helpers/catalog-picks.ts';

/**
 * The availability watcher through the composed core against the real service: windows changed
 * with the operator command (in this process, on the service's own store) become one alert each
 * (available, leaving, gone), told once as 'alerts.new', never again — not after a restart of the
 * core either; a check with nothing changed is only 304s.
 */
let env: LiveCoreEnv;
let playing: string;
let waiting: string;
const idOf = (ref: string) => ref.split('/').pop()!;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
const now = () => Math.floor(Date.now() / 1000);

async function setWindow(ref: string, from: string, until: string): Promise<void> {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  expect(await runCommand(env.svc.db, ['catalog', 'availability', idOf(ref), '--from', from, '--until', until])).toBe(
    0,
  );
  vi.restoreAllMocks();
}

const ours = (alerts: readonly Alert[]) => alerts.filter((a) => a.ref === playing || a.ref === waiting);
const told = () => ours(env.events.flatMap((e) => (e.event === 'alerts.new' ? e.payload.alerts : [])));
const check = async () => ours(valueOf(await env.core.dispatch('alerts.check', {})).alerts);

beforeAll(async () => {
  env = await startLiveCore({ core: { watchAlerts: true } });
  const movies = await movieIds(env.svc.db, 2);
  [playing, waiting] = movies.map((id) => `${env.svc.url}/catalog/titles/movies/${id}`) as [string, string];
  await setWindow(playing, '2020-01-01', 'never');
  await setWindow(waiting, '2035-01-01', 'never');
  const queue = await env.other.queue('instant');
  let etag = queue.etag;
  for (const item of queue.items) etag = (await env.other.queueRemove(item.itemRef, etag)).etag;
  etag = (await env.other.queueAdd('instant', playing, etag)).etag;
  await env.other.queueAdd('instant', waiting, etag); // not yet released: the saved part
});
afterAll(() => env?.close());

it('defaults: every 15 minutes, 7 days ahead, notifications on; changed and kept', async () => {
  expect(valueOf(await env.core.dispatch('alerts.settings', {}))).toEqual({
    intervalMinutes: 15,
    leavingDays: 7,
    notifications: true,
  });
  expect(valueOf(await env.core.dispatch('alerts.setSettings', { leavingDays: 10 }))).toEqual({
    intervalMinutes: 15,
    leavingDays: 10,
    notifications: true,
  });
  const refused = await env.core.dispatch('alerts.setSettings', { leavingDays: 0 });
  expect(refused.ok ? null : refused.error.message).toMatch(/at least 1 day/);
});

it('a saved title released is told available, once; an unchanged catalog costs only 304s', async () => {
  expect(await check()).toEqual([]); // the saved title is seen waiting
  await setWindow(waiting, iso(now() - 60), 'never');
  const alerts = await check();
  expect(alerts.map((a) => [a.kind, a.ref, a.read])).toEqual([['available', waiting, false]]);
  expect(told().map((a) => a.kind)).toEqual(['available']);
  expect(env.events.filter((e) => e.event === 'alerts.new').at(-1)?.payload).toMatchObject({ notify: true, unread: 1 });

  const from = env.exchanges.length;
  await check();
  const again = env.exchanges.slice(from);
  expect(again.length).toBeGreaterThan(2);
  expect(new Set(again.map((x) => x.status))).toEqual(new Set([304]));
  expect(told()).toHaveLength(1);
});

it('a queued title leaving within the days set is told, and one gone from the catalog', async () => {
  await setWindow(playing, '2020-01-01', iso(now() + 3 * 86_400));
  await check();
  expect(told().map((a) => [a.kind, a.ref])).toEqual([
    ['available', waiting],
    ['leaving', playing],
  ]);
  await setWindow(playing, '2020-01-01', iso(now() - 1));
  await check();
  expect(told().map((a) => a.kind)).toEqual(['available', 'leaving', 'gone']);
});

it('after a restart nothing is told again; alerts stay, newest first, and can be marked read', async () => {
  const core = await env.restartCore();
  await check();
  await check();
  expect(told()).toHaveLength(3);
  const list = valueOf(await core.dispatch('alerts.list', {}));
  expect(ours(list.alerts).map((a) => a.kind)).toEqual(['gone', 'leaving', 'available']);
  const first = ours(list.alerts)[0]!;
  const marked = valueOf(await core.dispatch('alerts.markRead', { ids: [first.id] }));
  expect(marked.unread).toBe(list.unread - 1);
  expect(valueOf(await core.dispatch('alerts.markRead', {})).unread).toBe(0);
});
