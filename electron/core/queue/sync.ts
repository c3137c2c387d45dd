import type { Events } from '../../../shared/ipc.ts';
import type { QueueKind, QueueProgress, QueueView, RefusedEdit } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import { kindOf, type ErrorLog } from '../errors.ts';
import { availableOrder } from '../../../shared/pure/queue-order.ts';
import { QUEUE_LIMIT } from '../../../shared/protocol/queue.ts';
import { KnownQueues, type SyncedQueue } from './known.ts';
import { newEntryId, type OutboxEntry, type QueueIntent, type QueueOutbox } from './outbox.ts';
import { OutboxReplayer } from './replayer.ts';
import { mapOutboxAddresses, type AddressOf } from './addresses.ts';
import { refusedEdit } from './refused.ts';
import { IntentSender } from './sender.ts';
import { ServiceError } from '../types.ts';

/**
 * Queue edits as intents ("move X to position N", "add X", "remove X", "make the order this"),
 * never as "write this order": each is checked against the queue as it is when it goes out, so
 * two devices editing one queue do not undo each other. The parts:
 *
 * - outbox.ts: every intent is written to a file before it goes out, removed once settled;
 * - replayer.ts: sends the outbox per queue, in order, one at a time; parks offline and
 *   replays on the service's return, on `resume()` or on a probe with backoff;
 * - sender.ts: one intent with If-Match; a 412 → refetch, rebase, retry, and a notice
 *   ('queue.conflict', `applied: true`); an intent that no longer applies → `applied: false`;
 * - bulk.ts + shared/pure/queue-plan.ts: a replace as one PUT, or as single moves with progress and cancel;
 * - known.ts: the last full read per account and its optimistic view (waiting edits applied).
 *
 * Offline, `apply` resolves at once with the optimistic queue and `pendingEdits` > 0 (an add cannot
 * be shown before the service answers: the app has no item for it). With no queue read yet, it
 * rejects 'offline' (the edit still waits). Replaying an intent the service had in fact applied is
 * harmless: it plans to "done" without a write.
 */

type SyncEvent = 'queue.changed' | 'queue.conflict' | 'queue.progress' | 'queue.refused' | 'connectivity.changed';

export interface QueueSyncOptions {
  client: Pick<Client, 'queue' | 'queueAdd' | 'queueMove' | 'queueRemove' | 'queueReplace' | 'bulkReplaceSupport'>;
  outbox: QueueOutbox;
  /** The signed-in account, `${profileId}:${userId}`, or null when signed out. */
  account: () => string | null;
  /** An account's service address now and its older ones: kept edits are mapped onto it (addresses.ts). */
  addressOf?: AddressOf;
  emit: <E extends SyncEvent>(event: E, payload: Events[E]) => void;
  now?: () => number;
  /** The probe's backoff while edits wait offline: default 1 s doubling to 60 s. */
  retry?: { baseMs?: number; maxMs?: number };
  log?: ErrorLog;
}

export interface QueueSync {
  /** Applies one edit; resolves with the queue after the write (or the optimistic queue, offline). */
  apply(intent: QueueIntent): Promise<SyncedQueue>;
  /**
   * Stops a replace of `kind`: one under way after its current step (its caller gets the queue as
   * the steps made left it; the last 'queue.progress' has `done` < `total`, and a 'queue.conflict'
   * with `applied: false` says "You stopped the change after 2 of 5 steps; …"), one still waiting
   * in the outbox before it starts (nothing of it is made). Resolves with the queue then.
   */
  cancelBulk(kind: QueueKind): Promise<SyncedQueue>;
  /** Reads a queue view; offline, the last full queue read with waiting edits applied. */
  read(kind: QueueKind, opts?: { view?: QueueView; start?: number; max?: number }): Promise<SyncedQueue>;
  /** The last full queue read for the current account, with waiting edits applied. */
  current(kind: QueueKind): SyncedQueue | undefined;
  /** Edits of the current account not yet applied by the service. */
  pendingEdits(): number;
  /** The current account's edits the service refused, kept until the person retries or discards them. */
  refused(): RefusedEdit[];
  /** Sends a refused edit again, in its turn; resolves with the refused edits left. */
  retryRefused(id: string): Promise<RefusedEdit[]>;
  /** Forgets a refused edit; resolves with the refused edits left. */
  discardRefused(id: string): Promise<RefusedEdit[]>;
  readonly online: boolean;
  /** From the transport: false after a network failure, true on any answer (replays the outbox). */
  setOnline(online: boolean): void;
  /** Start-up, sign-in, profile switch: replay the current account's outbox. */
  resume(): void;
  /** Resolves when no replay is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function createQueueSync(options: QueueSyncOptions): QueueSync {
  const { client, outbox, account, emit } = options;
  const now = options.now ?? Date.now;
  const log: ErrorLog = options.log ?? ((m, e) => console.error(`[marquee] ${m}:`, e));
  const known = new KnownQueues(outbox, account, emit);
  const sender = new IntentSender(client, known, account, (p: QueueProgress) => emit('queue.progress', p));
  const replayer = new OutboxReplayer({
    outbox,
    known,
    sender,
    account,
    emit,
    log,
    ...(options.retry ? { retry: options.retry } : {}),
  });

  // Edits kept from an older address of the same service are mapped before anything is sent.
  const mapAddresses = () => {
    if (options.addressOf)
      void mapOutboxAddresses(outbox, options.addressOf).catch((e: unknown) => log('Mapping the outbox', e));
  };
  mapAddresses();

  /** The current account's refused edit of that id, or a clear error. */
  const refusedOf = (id: string): OutboxEntry => {
    const entry = known.refused(account()).find((e) => e.id === id);
    if (!entry)
      throw new ServiceError({
        kind: 'not_found',
        message: 'That edit is no longer waiting: it was already retried or discarded.',
      });
    return entry;
  };
  const refusedNow = () => known.refused(account()).map(refusedEdit);

  /** The intent as kept: a name for the notices; a replace also keeps the order the user saw. */
  const complete = (input: QueueIntent, acct: string): QueueIntent => {
    if (input.op === 'replace') {
      const seen = known.current(input.kind);
      return seen && input.base === undefined ? { ...input, base: availableOrder(seen.items) } : input;
    }
    const name = input.name ?? known.get(input.kind, acct)?.items.find((i) => i.ref === input.ref)?.title;
    return name === undefined ? input : { ...input, name };
  };

  const read: QueueSync['read'] = async (kind, opts = {}) => {
    const acct = account();
    const view = opts.view ?? 'all';
    const whole = view === 'all' && (opts.start ?? 0) === 0 && opts.max === undefined;
    let queue;
    try {
      queue = await client.queue(kind, {
        view,
        ...(opts.start !== undefined ? { start: opts.start } : {}),
        max: opts.max ?? QUEUE_LIMIT,
      });
    } catch (error) {
      const last = kindOf(error) === 'offline' && whole ? known.current(kind) : undefined;
      if (last) return last;
      throw error;
    }
    if (whole && acct !== null && account() === acct) {
      known.remember(queue, acct, true);
      return known.optimistic(queue, acct);
    }
    return { ...queue, pendingEdits: known.pending(acct).length };
  };

  return {
    async apply(input) {
      const acct = account();
      if (acct === null) throw new ServiceError({ kind: 'auth', message: 'Sign in to change your queue.' });
      const baseUrl = options.addressOf?.(acct)?.current;
      const entry: OutboxEntry = {
        id: newEntryId(),
        account: acct,
        intent: complete(input, acct),
        queuedAt: now(),
        ...(baseUrl ? { baseUrl } : {}),
      };
      const answer = replayer.answerOf(entry);
      await outbox.append(entry).catch(() => undefined); // outbox warns; the edit is still made now
      replayer.enqueue(entry);
      return answer;
    },

    async cancelBulk(kind) {
      const acct = account();
      const running = sender.cancel(kind);
      const waiting = known.pending(acct, kind).filter((e) => e.intent.op === 'replace');
      // The running one is first in the outbox: the replayer settles it after its current step.
      for (const entry of running ? waiting.slice(1) : waiting)
        await replayer.withdraw(entry, () => known.current(kind));
      await replayer.idle(kind);
      return known.current(kind) ?? read(kind);
    },

    read,
    current: (kind) => known.current(kind),
    pendingEdits: () => known.pending(account()).length,
    refused: refusedNow,
    async retryRefused(id) {
      const entry = refusedOf(id);
      await outbox.update(entry.id, ({ refused: _refused, ...waiting }) => waiting);
      replayer.resume();
      return refusedNow();
    },
    async discardRefused(id) {
      await outbox.remove(refusedOf(id).id);
      replayer.announceRefused();
      return refusedNow();
    },
    get online() {
      return replayer.online;
    },
    setOnline: (value) => replayer.setOnline(value),
    resume: () => {
      mapAddresses();
      replayer.resume();
    },
    idle: () => replayer.idle(),
    close: () => replayer.close(),
  };
}
