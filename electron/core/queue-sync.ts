import type { Events } from '../../shared/ipc.ts';
import type { Queue, QueueKind, QueueView } from '../../shared/models.ts';
import { SubCode } from '../../shared/protocol/index.ts';
import { backoffDelay } from './backoff.ts';
import type { Client } from './client.ts';
import { kindOf, toAppError, type ErrorLog } from './errors.ts';
import { applyLocally, conflict, PAST, planIntent, quoted } from './queue-intents.ts';
import { newEntryId, type OutboxEntry, type QueueIntent, type QueueOutbox } from './queue-outbox.ts';
import { ServiceError } from './types.ts';

/**
 * Queue edits as intents ("move X to position N", "add X", "remove X"), never as "write this
 * order": each is checked against the queue as it is when it goes out, so two devices editing one
 * queue do not undo each other.
 *
 * - One write at a time per queue, each with the latest ETag (If-Match).
 * - A 412 (someone else changed the queue): refetch, re-apply the intent to the fresh queue if it
 *   still makes sense, retry once; otherwise a 'queue.conflict' event saying what happened.
 * - Every intent is written to the outbox (queue-outbox.ts) before it goes out and removed once the
 *   service applied it (or it was refused). Offline, intents wait there, in order, across restarts,
 *   and replay when the service answers again: on `setOnline(true)` (the transport saw an answer),
 *   on `resume()` (start-up, sign-in), or on a probe with backoff while edits wait. Replaying an
 *   intent the service had in fact applied is harmless: a move to where it already is, an add of a
 *   queued title or a remove of a gone one is "done" without a write.
 *
 * Offline, `apply` resolves at once with the optimistic queue: the last queue read with the waiting
 * edits applied locally (an add cannot be shown before the service answers: the app has no item
 * for it) and `pendingEdits` > 0. With no queue read yet, it rejects 'offline' (the edit still waits).
 */

/** A queue as the app shows it: what the service said plus the edits still waiting (0: none). */
export type SyncedQueue = Queue & { pendingEdits: number };

type SyncEvent = 'queue.changed' | 'queue.conflict' | 'connectivity.changed';

export interface QueueSyncOptions {
  client: Pick<Client, 'queue' | 'queueAdd' | 'queueMove' | 'queueRemove'>;
  outbox: QueueOutbox;
  /** The signed-in account, `${profileId}:${userId}`, or null when signed out. */
  account: () => string | null;
  emit: <E extends SyncEvent>(event: E, payload: Events[E]) => void;
  now?: () => number;
  /** The probe's backoff while edits wait offline: default 1 s doubling to 60 s. */
  retry?: { baseMs?: number; maxMs?: number };
  log?: ErrorLog;
}

export interface QueueSync {
  /** Applies one edit; resolves with the queue after the write (or the optimistic queue, offline). */
  apply(intent: QueueIntent): Promise<SyncedQueue>;
  /** Reads a queue view; offline, the last full queue read with waiting edits applied. */
  read(kind: QueueKind, opts?: { view?: QueueView; start?: number; max?: number }): Promise<SyncedQueue>;
  /** The last full queue read for the current account, with waiting edits applied. */
  current(kind: QueueKind): SyncedQueue | undefined;
  /** Edits of the current account not yet applied by the service. */
  pendingEdits(): number;
  readonly online: boolean;
  /** From the transport: false after a network failure, true on any answer (replays the outbox). */
  setOnline(online: boolean): void;
  /** Start-up, sign-in, profile switch: forget queues read for another account, replay the outbox. */
  resume(): void;
  /** Resolves when no replay is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const KINDS: QueueKind[] = ['instant', 'disc'];
const FULL = 500;

interface Waiter {
  resolve(queue: SyncedQueue): void;
  reject(error: unknown): void;
}

export function createQueueSync(options: QueueSyncOptions): QueueSync {
  const { client, outbox, account, emit } = options;
  const now = options.now ?? Date.now;
  const log: ErrorLog = options.log ?? ((m, e) => console.error(`[marquee] ${m}:`, e));
  /** Last full queue read, by `${account}\n${kind}`. */
  const known = new Map<string, Queue>();
  const waiters = new Map<string, Waiter>();
  const running = new Map<QueueKind, Promise<void>>();
  /** undefined: unknown (try); false: known offline (wait for a probe or an answer). */
  let online: boolean | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let probeAttempt = 0;
  let closed = false;
  let announced = '';

  const keyOf = (kind: QueueKind, acct = account()) => `${acct}\n${kind}`;
  const pendingOf = (acct: string | null, kind?: QueueKind): OutboxEntry[] =>
    acct === null ? [] : outbox.entries().filter((e) => e.account === acct && (kind === undefined || e.intent.kind === kind));

  function announceConnectivity(): void {
    const payload = { online: online !== false, pendingEdits: pendingOf(account()).length };
    const text = JSON.stringify(payload);
    if (text === announced) return;
    announced = text;
    emit('connectivity.changed', payload);
  }

  /** `base` with the account's waiting edits of its kind applied locally. */
  function optimistic(base: Queue, acct: string | null): SyncedQueue {
    let items = [...base.items];
    const pending = pendingOf(acct, base.kind);
    for (const { intent } of pending) items = applyLocally(items, intent);
    return { ...base, items, total: base.total + (items.length - base.items.length), pendingEdits: pendingOf(acct).length };
  }

  function current(kind: QueueKind): SyncedQueue | undefined {
    const base = known.get(keyOf(kind));
    return base ? optimistic(base, account()) : undefined;
  }

  /** Keeps a full queue read; tells the app when it differs from the one known (changed elsewhere). */
  function remember(queue: Queue, acct: string | null, announce: boolean): void {
    const key = keyOf(queue.kind, acct);
    const before = known.get(key);
    known.set(key, queue);
    if (announce && before && acct === account() && before.etag !== queue.etag) emit('queue.changed', { kind: queue.kind, queue: optimistic(queue, acct) });
  }

  /** A full read while sending: remembered quietly; drain announces once the intent is settled. */
  async function fetchFull(kind: QueueKind, acct: string): Promise<Queue> {
    const queue = await client.queue(kind, { max: FULL });
    if (account() === acct) remember(queue, acct, false);
    return queue;
  }

  /** 'queue.changed' when the queue known now differs from `before` (an etag). */
  function announceQueue(kind: QueueKind, acct: string, before: string | undefined): void {
    const queue = known.get(keyOf(kind, acct));
    if (queue && queue.etag !== before && account() === acct) emit('queue.changed', { kind, queue: optimistic(queue, acct) });
  }

  /** One intent against the service, rebased and retried once on 412; resolves with the fresh queue. */
  async function send(intent: QueueIntent, acct: string): Promise<Queue> {
    let queue = known.get(keyOf(intent.kind, acct));
    let fresh = false;
    if (!queue) {
      queue = await fetchFull(intent.kind, acct);
      fresh = true;
    }
    for (let attempt = 1; ; attempt++) {
      let step = planIntent(intent, queue, client);
      if (step.type !== 'write' && !fresh) {
        queue = await fetchFull(intent.kind, acct); // the queue known may be old: judge on a fresh one
        fresh = true;
        step = planIntent(intent, queue, client);
      }
      if (step.type === 'done') return queue;
      if (step.type === 'conflict') throw conflict(step.message);
      try {
        await step.run(queue.etag);
        return await fetchFull(intent.kind, acct);
      } catch (error) {
        const e = error instanceof ServiceError ? error.appError : undefined;
        if (e?.status === 412 && e.subCode === SubCode.alreadyInQueue) return fetchFull(intent.kind, acct);
        if (e?.status === 404 && e.subCode === SubCode.titleNotInQueue && intent.op === 'remove') return fetchFull(intent.kind, acct);
        if (e?.subCode === SubCode.titleSaved) throw conflict(`${quoted(intent.name)} is saved until it is released, so it cannot be moved.`);
        if (e?.kind !== 'conflict') throw error;
        if (attempt >= 2) {
          throw conflict(`Your ${intent.kind} queue kept changing on another device, so ${quoted(intent.name).replace(/^The/, 'the')} could not be ${PAST[intent.op]}. Try again.`);
        }
        queue = await fetchFull(intent.kind, acct);
        fresh = true;
      }
    }
  }

  /** Sends the account's waiting intents of one queue, oldest first, one at a time. */
  async function drain(kind: QueueKind): Promise<void> {
    for (;;) {
      const acct = account();
      if (closed || online === false || acct === null) return;
      const entry = pendingOf(acct, kind)[0];
      if (!entry) return;
      const waiter = waiters.get(entry.id);
      const before = known.get(keyOf(kind, acct))?.etag;
      try {
        const queue = await send(entry.intent, acct);
        probeAttempt = 0;
        await settle(entry);
        announceQueue(kind, acct, before);
        waiter?.resolve(account() === acct ? optimistic(queue, acct) : { ...queue, pendingEdits: 0 });
      } catch (error) {
        if (kindOf(error) === 'offline') {
          park();
          if (waiter) offlineAnswer(entry, waiter, error);
          return;
        }
        await settle(entry);
        announceQueue(kind, acct, before);
        const appError = toAppError(error, log, 'a queue edit');
        if (appError.kind === 'conflict') emit('queue.conflict', { kind, message: appError.message, applied: false });
        else if (!waiter) emit('queue.conflict', { kind, message: `${quoted(entry.intent.name)} could not be ${PAST[entry.intent.op]}: ${appError.message}`, applied: false });
        waiter?.reject(error instanceof ServiceError ? error : new ServiceError(appError));
      }
    }
  }

  async function settle(entry: OutboxEntry): Promise<void> {
    waiters.delete(entry.id);
    await outbox.remove(entry.id).catch(() => undefined); // outbox warns; the list in memory is right
    announceConnectivity();
  }

  /** Offline: the caller gets the optimistic queue now; the intent stays in the outbox. */
  function offlineAnswer(entry: OutboxEntry, waiter: Waiter, error?: unknown): void {
    waiters.delete(entry.id);
    const queue = current(entry.intent.kind);
    if (queue) {
      emit('queue.changed', { kind: entry.intent.kind, queue });
      waiter.resolve(queue);
    } else {
      const why = error instanceof ServiceError ? ` (${error.message})` : '';
      waiter.reject(new ServiceError({ kind: 'offline', message: `The service cannot be reached${why}: your change was kept and will be made when it is back.` }));
    }
  }

  function kick(kind: QueueKind): void {
    if (closed || running.has(kind)) return;
    const run = drain(kind)
      .catch((error: unknown) => log('Queue replay failed', error))
      .finally(() => {
        running.delete(kind);
        if (!closed && online !== false && pendingOf(account(), kind).length > 0) kick(kind);
      });
    running.set(kind, run);
  }

  function park(): void {
    const changed = online !== false;
    online = false;
    if (changed) announceConnectivity();
    scheduleProbe();
  }

  function scheduleProbe(): void {
    if (closed || probeTimer || pendingOf(account()).length === 0) return;
    probeAttempt++;
    const delay = backoffDelay(probeAttempt, { baseMs: options.retry?.baseMs ?? 1000, maxMs: options.retry?.maxMs ?? 60_000 });
    probeTimer = setTimeout(() => {
      probeTimer = undefined;
      online = undefined; // the first write is the probe
      for (const kind of KINDS) kick(kind);
    }, delay);
    probeTimer.unref?.();
  }

  function resume(): void {
    if (closed) return;
    if (probeTimer) clearTimeout(probeTimer);
    probeTimer = undefined;
    if (online === false) online = undefined;
    announceConnectivity();
    for (const kind of KINDS) kick(kind);
  }

  return {
    async apply(input) {
      const acct = account();
      if (acct === null) throw new ServiceError({ kind: 'auth', message: 'Sign in to change your queue.' });
      const intent: QueueIntent = { ...input, name: input.name ?? known.get(keyOf(input.kind, acct))?.items.find((i) => i.ref === input.ref)?.title };
      if (intent.name === undefined) delete intent.name;
      const entry: OutboxEntry = { id: newEntryId(), account: acct, intent, queuedAt: now() };
      const result = new Promise<SyncedQueue>((resolve, reject) => waiters.set(entry.id, { resolve, reject }));
      await outbox.append(entry).catch(() => undefined); // outbox warns; the edit is still made now
      announceConnectivity();
      if (online === false) {
        offlineAnswer(entry, waiters.get(entry.id)!);
        scheduleProbe();
      } else kick(intent.kind);
      return result;
    },

    async read(kind, opts = {}) {
      const acct = account();
      const view = opts.view ?? 'all';
      const whole = view === 'all' && (opts.start ?? 0) === 0 && opts.max === undefined;
      let queue: Queue;
      try {
        queue = await client.queue(kind, { view, ...(opts.start !== undefined ? { start: opts.start } : {}), max: opts.max ?? FULL });
      } catch (error) {
        const last = kindOf(error) === 'offline' && whole ? current(kind) : undefined;
        if (last) return last;
        throw error;
      }
      if (whole && acct !== null && account() === acct) {
        remember(queue, acct, true);
        return optimistic(queue, acct);
      }
      return { ...queue, pendingEdits: pendingOf(acct).length };
    },

    current,
    pendingEdits: () => pendingOf(account()).length,
    get online() {
      return online !== false;
    },
    setOnline(value) {
      if (closed) return;
      if (value) {
        probeAttempt = 0;
        if (online === false || online === undefined) {
          online = true;
          resume();
        }
        return;
      }
      park();
    },
    resume,
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    async close() {
      closed = true;
      if (probeTimer) clearTimeout(probeTimer);
      probeTimer = undefined;
      // Let a write in flight settle (bounded: a hung request must not hold up quitting).
      await Promise.race([Promise.all(running.values()), new Promise((r) => setTimeout(r, 2000).unref?.())]);
      await outbox.flushed();
    },
  };
}
