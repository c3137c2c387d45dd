import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import type { Client } from '../../electron/core/client/index.ts';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import { LAUNCHER_ENTRY, startService, type RunningService } from '../helpers/service-process.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { instantTitles, setInstantQueue, valueOf, waitFor } from './helpers/live-core.ts';
import {
  otherDeviceClient,
  processCore,
  startProcessService,
  stopProcessService,
  type AppTokens,
} from './helpers/process-service.ts';
import { within } from '../helpers/within.ts';

/**
 * The embedded service's address changed between two launches (its port was taken): edits made
 * offline at the old address are mapped to the new one and land, never dropped; an edit the
 * service can no longer make is kept, told in words, and can be retried or discarded.
 */
let svc: RunningService;
let dataDir: string;
let userDir: string;
let appToken: AppTokens;
let otherToken: Credentials;

beforeAll(async () => {
  ({ svc, dataDir, userDir, appToken, otherToken } = await startProcessService('address', {
    login: 'address@example.com',
    password: 'address-pw-1',
    firstName: 'Ada',
    lastName: 'Address',
    acceptedTos: true,
  }));
}, 120_000);

afterAll(() => stopProcessService({ svc, dataDir, userDir }));

/** The same subscriber on another device, at the service's current address. */
const otherDevice = (): Client => otherDeviceClient(svc.localUrl, svc.demo, otherToken);

/** A core as a host builds it: the embedded profile at the service's address of this launch. */
const makeCore = (): AppCore => processCore({ svc, userDir, appToken });

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
