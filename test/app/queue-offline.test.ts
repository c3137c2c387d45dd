import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { createClient, type Client } from '../../electron/core/client/index.ts';
import { createCore } from '../../electron/core/compose.ts';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import type { Result } from '../../shared/models.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../electron/core/settings/index.ts';
import { createTransport } from '../../electron/core/transport/index.ts';
import { openDb } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { LAUNCHER_ENTRY, running, startService, type RunningService } from '../helpers/service-process.ts';
import type { Exchange } from './helpers/live-core.ts';
import { instantTitles, setInstantQueue, valueOf, waitFor } from './helpers/live-core.ts';
import { within } from '../helpers/within.ts';
import { urlOf } from '../helpers/fetch-input.ts';

/**
 * Offline edits against the real service as a process: stopped, three edits made (kept in the
 * outbox file, shown as pending), the core closed and a new one built on the same user-data
 * folder, the service started again on the same data: the edits land in the order they were made.
 */
let svc: RunningService;
let port: number;
let dataDir: string;
let userDir: string;
let other: Client;
let appToken: { token: string; secret: string; userId: string };
const exchanges: Exchange[] = [];

const loggedFetch: typeof fetch = async (input, init) => {
  const entry: Exchange = {
    method: init?.method ?? 'GET',
    url: urlOf(input),
    ifMatch: new Headers(init?.headers).get('if-match') ?? undefined,
    status: 0,
  };
  exchanges.push(entry);
  const res = await fetch(input, init);
  entry.status = res.status;
  return res;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'marquee-offline-svc-'));
  userDir = mkdtempSync(join(tmpdir(), 'marquee-offline-app-'));
  // The run's demo catalog, copied: the service starts on it instead of loading the catalog again.
  copyFileSync(inject('sqliteTemplate'), join(dataDir, 'marquee.sqlite'));
  svc = await startService(['--port', '0', '--data-dir', dataDir], {}, LAUNCHER_ENTRY);
  port = Number(new URL(svc.localUrl).port);
  const db = await openDb({ sqlitePath: join(dataDir, 'marquee.sqlite') });
  try {
    const user = await createUser(db, {
      login: 'offline@example.com',
      password: 'offline-pw-1',
      firstName: 'Olive',
      lastName: 'Offline',
      acceptedTos: true,
    });
    const mine = await issueAccessToken(db, svc.demo.key, user.id);
    const theirs = await issueAccessToken(db, svc.demo.key, user.id);
    appToken = { token: mine.token, secret: mine.secret, userId: user.id };
    const transport = createTransport({
      getContext: () => ({
        baseUrl: svc.localUrl,
        consumer: svc.demo,
        token: { key: theirs.token, secret: theirs.secret },
      }),
    });
    other = createClient(transport, { baseUrl: () => svc.localUrl });
  } finally {
    await db.close();
  }
}, 120_000);

afterAll(async () => {
  if (svc?.proc.exitCode === null) await svc.stop('SIGTERM');
  for (const proc of running) proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(userDir, { recursive: true, force: true });
});

function makeCore(): AppCore {
  const settings = openNodeSettings({ dir: userDir, onWarning: () => {} });
  ensureDefaultProfile(settings, { baseUrl: svc.localUrl, consumerKey: svc.demo.key, consumerSecret: svc.demo.secret });
  if (!settings.getTokens('embedded')) settings.setTokens('embedded', appToken);
  return createCore({
    userDataDir: userDir,
    settings,
    openExternal: () => {
      throw new Error('no browser in this test');
    },
    fetch: loggedFetch,
    outboxRetry: { baseMs: 40, maxMs: 200 },
    log: () => {},
    watchAlerts: false, // the test counts every request the queue's edits make
  });
}

const order = (q: { items: Array<{ ref: string }> }) => q.items.map((i) => i.ref);
const outboxFile = () => join(userDir, 'queue-outbox.json');
const outboxOps = () =>
  existsSync(outboxFile())
    ? (JSON.parse(readFileSync(outboxFile(), 'utf8')) as { entries: Array<{ intent: { op: string } }> }).entries.map(
        (e) => e.intent.op,
      )
    : [];

it('keeps three edits (a move, a remove, a replace) across a core restart while the service is down, then lands them in order', async () => {
  const [a, b, c, d] = (await instantTitles(other, 4)).map((t) => t.ref) as [string, string, string, string];
  await setInstantQueue(other, [a, b, c, d]);
  let core = makeCore();
  expect(order(valueOf(await core.dispatch('queue.list', { kind: 'instant' })))).toEqual([a, b, c, d]);

  await svc.stop('SIGTERM');
  // Each step names itself if it hangs (the test once ran out of time with no word of where).
  const offline = async (step: Promise<Result<unknown>>, what: string) =>
    valueOf(await within(step, what, 40_000)) as SyncedQueue;
  const moved = await offline(
    core.dispatch('queue.move', { kind: 'instant', ref: d, position: 1 }),
    'the offline move',
  );
  const removed = await offline(core.dispatch('queue.remove', { kind: 'instant', ref: b }), 'the offline remove');
  const replaced = await offline(
    core.dispatch('queue.replace', { kind: 'instant', refs: [c, a, d] }),
    'the offline replace',
  );
  // Shown at once, as pending.
  expect([order(moved), order(removed), order(replaced)]).toEqual([
    [d, a, b, c],
    [d, a, c],
    [c, a, d],
  ]);
  expect([moved.pendingEdits, removed.pendingEdits, replaced.pendingEdits]).toEqual([1, 2, 3]);
  // Only the oldest edit was tried (by the app, then by its probe: conditional, If-Match), and none got through.
  const tried = exchanges.filter((x) => x.method !== 'GET');
  expect(tried.length).toBeGreaterThan(0);
  expect(tried.every((x) => x.method === 'POST' && x.status === 0 && x.ifMatch !== undefined)).toBe(true);

  await within(core.close(), 'the first core to close');
  expect(outboxOps()).toEqual(['move', 'remove', 'replace']);
  exchanges.length = 0;
  core = makeCore(); // a new core on the same folder, the service still down
  try {
    svc = await within(
      startService(['--port', String(port), '--data-dir', dataDir], {}, LAUNCHER_ENTRY),
      'the service to start again',
      60_000,
    );
    await waitFor(() => outboxOps().length === 0, 'the new core to replay the outbox', 30_000);

    expect(order(await within(other.queue('instant'), 'the other device to read the queue', 40_000))).toEqual([
      c,
      a,
      d,
    ]);
    const landed = exchanges
      .filter((x) => x.method !== 'GET' && x.status >= 200 && x.status < 300)
      .map((x) => x.method);
    expect(landed).toEqual(['POST', 'DELETE', 'PUT']); // in the order they were made
    const now = valueOf(await core.dispatch('queue.list', { kind: 'instant' }));
    expect(order(now)).toEqual([c, a, d]);
    expect(now.pendingEdits).toBe(0);
  } finally {
    await core.close();
  }
}, 120_000);
