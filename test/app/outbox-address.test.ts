import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { createClient, type Client } from '../../electron/core/client/index.ts';
import { createCore } from '../../electron/core/compose.ts';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../electron/core/settings/index.ts';
import { createTransport } from '../../electron/core/transport/index.ts';
import { openDb } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { LAUNCHER_ENTRY, running, startService, type RunningService } from '../helpers/service-process.ts';
import { instantTitles, setInstantQueue, valueOf, waitFor } from './helpers/live-core.ts';
import { within } from '../helpers/within.ts';

/**
 * The embedded service's address changed between two launches (its port was taken): edits made
 * offline at the old address are mapped to the new one and land, never dropped; an edit the
 * service can no longer make is kept, told in words, and can be retried or discarded.
 */
let svc: RunningService;
let dataDir: string;
let userDir: string;
let appToken: { token: string; secret: string; userId: string };
let otherToken: { token: string; secret: string };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'marquee-address-svc-'));
  userDir = mkdtempSync(join(tmpdir(), 'marquee-address-app-'));
  copyFileSync(inject('sqliteTemplate'), join(dataDir, 'marquee.sqlite'));
  svc = await startService(['--port', '0', '--data-dir', dataDir], {}, LAUNCHER_ENTRY);
  const db = await openDb({ sqlitePath: join(dataDir, 'marquee.sqlite') });
  try {
    const user = await createUser(db, {
      login: 'address@example.com',
      password: 'address-pw-1',
      firstName: 'Ada',
      lastName: 'Address',
      acceptedTos: true,
    });
    const mine = await issueAccessToken(db, svc.demo.key, user.id);
    const theirs = await issueAccessToken(db, svc.demo.key, user.id);
    appToken = { token: mine.token, secret: mine.secret, userId: user.id };
    otherToken = { token: theirs.token, secret: theirs.secret };
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

/** The same subscriber on another device, at the service's current address. */
function otherDevice(): Client {
  const url = svc.localUrl;
  const transport = createTransport({
    getContext: () => ({
      baseUrl: url,
      consumer: svc.demo,
      token: { key: otherToken.token, secret: otherToken.secret },
    }),
  });
  return createClient(transport, { baseUrl: () => url });
}

/** A core as a host builds it: the embedded profile at the service's address of this launch. */
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
    outboxRetry: { baseMs: 40, maxMs: 200 },
    log: () => {},
    watchAlerts: false,
  });
}

const order = (q: { items: Array<{ ref: string }> }) => q.items.map((i) => i.ref);
const pathsOf = (refs: string[]) => refs.map((r) => new URL(r).pathname);
const outboxFile = () => join(userDir, 'queue-outbox.json');
interface StoredEntry {
  intent: { op: string; ref?: string };
  refused?: { reason: string };
}
const outbox = (): StoredEntry[] =>
  existsSync(outboxFile())
    ? (JSON.parse(readFileSync(outboxFile(), 'utf8')) as { entries: StoredEntry[] }).entries
    : [];

/** Stops the service, makes `edits` offline, closes the core, starts the service on a new port. */
async function offlineAcrossAMove(core: AppCore, edits: (core: AppCore) => Promise<void>): Promise<string> {
  await svc.stop('SIGTERM');
  await edits(core);
  await within(core.close(), 'the core to close');
  const before = svc.localUrl;
  svc = await within(startService(['--port', '0', '--data-dir', dataDir], {}, LAUNCHER_ENTRY), 'the restart', 60_000);
  expect(svc.localUrl).not.toBe(before);
  return before;
}

it('lands edits made at the old address after the service moves to another port', async () => {
  const [a, b, c] = (await instantTitles(otherDevice(), 3)).map((t) => t.ref) as [string, string, string];
  await setInstantQueue(otherDevice(), [a, b, c]);
  let core = makeCore();
  expect(order(valueOf(await core.dispatch('queue.list', { kind: 'instant' })))).toEqual([a, b, c]);
  await offlineAcrossAMove(core, async (offline) => {
    const moved = valueOf(
      await within(
        offline.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 }),
        'the offline move',
        40_000,
      ),
    ) as SyncedQueue;
    expect(moved.pendingEdits).toBe(1);
  });
  expect(outbox().map((e) => e.intent.op)).toEqual(['move']);

  core = makeCore();
  try {
    await waitFor(() => outbox().length === 0, 'the outbox to be sent', 30_000);
    // Ids are the service's URLs: same titles, at the address the service has now.
    const now = order(await otherDevice().queue('instant'));
    expect(pathsOf(now)).toEqual(pathsOf([c, a, b]));
    expect(now.every((ref) => ref.startsWith(svc.localUrl))).toBe(true);
  } finally {
    await core.close();
  }
}, 120_000);

it('keeps an edit the service refuses after a restart, in words, until the person retries or discards it', async () => {
  const [a, b, c] = (await instantTitles(otherDevice(), 3)).map((t) => t.ref) as [string, string, string];
  await setInstantQueue(otherDevice(), [a, b, c]);
  let core = makeCore();
  const named = valueOf(await core.dispatch('queue.list', { kind: 'instant' }));
  const nameOf = (ref: string) => named.items.find((i) => i.ref === ref)!.title;
  await offlineAcrossAMove(core, async (offline) => {
    await within(offline.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 }), 'the offline move', 40_000);
    await within(offline.dispatch('queue.move', { kind: 'instant', ref: b, position: 1 }), 'the second move', 40_000);
  });
  // Meanwhile, on another device, both titles leave the queue: neither move can be made any more.
  await setInstantQueue(otherDevice(), [otherAddress(a)]);

  core = makeCore();
  try {
    await waitFor(() => outbox().every((e) => e.refused), 'both edits to be refused', 30_000);
    expect(outbox().map((e) => e.intent.op)).toEqual(['move', 'move']); // kept, in order, not dropped
    const refused = valueOf(await core.dispatch('queue.refused', {}));
    expect(refused.map((r) => r.edit)).toEqual([
      `Move “${nameOf(c)}” to position 1`,
      `Move “${nameOf(b)}” to position 1`,
    ]);
    expect(refused[0]!.reason).toMatch(/removed on another device/);
    const status = valueOf(await core.dispatch('queue.list', { kind: 'instant' }));
    expect(status.pendingEdits).toBe(0); // refused edits wait for the person, not for the service

    // Retry after the title is back in the queue: the move is made.
    await setInstantQueue(otherDevice(), [otherAddress(a), otherAddress(c)]);
    const left = valueOf(await core.dispatch('queue.retryRefused', { id: refused[0]!.id }));
    expect(left.map((r) => r.id)).toEqual([refused[1]!.id]);
    await waitFor(() => outbox().length === 1, 'the retried move to be made', 30_000);
    expect(pathsOf(order(await otherDevice().queue('instant')))).toEqual(pathsOf([c, a]));

    // Discard: gone from the outbox file for good, and from the list.
    expect(valueOf(await core.dispatch('queue.discardRefused', { id: refused[1]!.id }))).toEqual([]);
    await waitFor(() => outbox().length === 0, 'the discarded edit to leave the file');
    const again = await core.dispatch('queue.discardRefused', { id: refused[1]!.id });
    expect(again.ok ? 'ok' : again.error.kind).toBe('not_found');
  } finally {
    await core.close();
  }
}, 120_000);

/** `ref` at the service's current address (the refs above were read at an older one). */
function otherAddress(ref: string): string {
  return svc.localUrl + new URL(ref).pathname;
}
