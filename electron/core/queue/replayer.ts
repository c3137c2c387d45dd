import type { Events } from '../../../shared/ipc.ts';
import type { QueueKind } from '../../../shared/models.ts';
import { backoffDelay } from '../transport/index.ts';
import { kindOf, toAppError, type ErrorLog } from '../errors.ts';
import type { AppError } from '../../../shared/models.ts';
import { rebasedNotice, stoppedNotice } from './intents.ts';
import { Refusals } from './refused.ts';
import type { KnownQueues, SyncedQueue } from './known.ts';
import type { OutboxEntry, QueueOutbox } from './outbox.ts';
import type { IntentSender } from './sender.ts';
import { ServiceError } from '../types.ts';

/**
 * Sends the outbox: per queue, the account's waiting intents oldest first, one at a time, each
 * removed from the outbox once the service applied it. One the service refused is told to its
 * caller, or, replayed with nobody waiting, kept marked refused (refused.ts words it; the person
 * retries or discards it, 'queue.refused'). Offline it parks: the intents wait (in the file, across restarts) and a probe
 * with backoff retries while any wait; any answer from the service (`setOnline(true)`) or a
 * `resume()` replays at once.
 */

type ReplayEvent = 'queue.changed' | 'queue.conflict' | 'queue.refused' | 'connectivity.changed';

export interface ReplayerOptions {
  outbox: QueueOutbox;
  known: KnownQueues;
  sender: IntentSender;
  account: () => string | null;
  emit: <E extends ReplayEvent>(event: E, payload: Events[E]) => void;
  /** The probe's backoff while edits wait offline: default 1 s doubling to 60 s. */
  retry?: { baseMs?: number; maxMs?: number };
  log: ErrorLog;
}

interface Waiter {
  resolve(queue: SyncedQueue): void;
  reject(error: unknown): void;
}

const KINDS: QueueKind[] = ['instant', 'disc'];
/** Times an edit meets a server failure (5xx) before it is given up, with a conflict in words. */
export const MAX_SERVER_FAILURES = 3;

export class OutboxReplayer {
  private readonly waiters = new Map<string, Waiter>();
  private readonly running = new Map<QueueKind, Promise<void>>();
  /** Server failures (5xx) met so far, by outbox entry id. */
  private readonly failures = new Map<string, number>();
  /** undefined: unknown (try); false: known offline (wait for a probe or an answer). */
  private state: boolean | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private probeAttempt = 0;
  private closed = false;
  private announced = '';
  private readonly refusals: Refusals;

  constructor(private readonly o: ReplayerOptions) {
    this.refusals = new Refusals(o.outbox, o.known, o.account, (edits) => o.emit('queue.refused', { edits }));
  }

  get online(): boolean {
    return this.state !== false;
  }

  /**
   * The answer to an intent: resolves once it is applied (or at once, offline). Called before the
   * entry is appended to the outbox, so a replay already running that picks it up finds its caller.
   */
  answerOf(entry: OutboxEntry): Promise<SyncedQueue> {
    return new Promise<SyncedQueue>((resolve, reject) => this.waiters.set(entry.id, { resolve, reject }));
  }

  /** Sends an intent just appended to the outbox (or answers at once, offline). */
  enqueue(entry: OutboxEntry): void {
    this.announceConnectivity();
    const waiter = this.waiters.get(entry.id);
    if (this.state === false) {
      if (waiter) this.offlineAnswer(entry, waiter);
      this.scheduleProbe();
    } else this.kick(entry.intent.kind);
  }

  /** Takes a waiting intent out before it is sent (a cancelled replace); its caller gets `queue`. */
  async withdraw(entry: OutboxEntry, queue: () => SyncedQueue | undefined): Promise<void> {
    const waiter = this.waiters.get(entry.id);
    await this.settle(entry);
    const now = queue();
    if (waiter && now) waiter.resolve(now);
    else waiter?.reject(new ServiceError({ kind: 'invalid', message: 'The change was cancelled before it was made.' }));
  }

  setOnline(value: boolean): void {
    if (this.closed) return;
    if (!value) return this.park();
    this.probeAttempt = 0;
    if (this.state !== true) {
      this.state = true;
      this.resume();
    }
  }

  resume(): void {
    if (this.closed) return;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    if (this.state === false) this.state = undefined;
    this.announceConnectivity();
    this.announceRefused();
    for (const kind of KINDS) this.kick(kind);
  }

  /** Resolves when no replay is running (of one queue, or of all). */
  async idle(kind?: QueueKind): Promise<void> {
    if (kind) {
      while (this.running.has(kind)) await this.running.get(kind);
      return;
    }
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    // Let a write in flight settle (bounded: a hung request must not hold up quitting).
    await Promise.race([Promise.all(this.running.values()), new Promise((r) => setTimeout(r, 2000).unref?.())]);
    await this.o.outbox.flushed();
  }

  announceConnectivity(): void {
    const payload = { online: this.state !== false, pendingEdits: this.o.known.pending(this.o.account()).length };
    const text = JSON.stringify(payload);
    if (text === this.announced) return;
    this.announced = text;
    this.o.emit('connectivity.changed', payload);
  }

  /** 'queue.refused' with the current account's refused edits, when they changed. */
  announceRefused(): void {
    this.refusals.announce();
  }

  private kick(kind: QueueKind): void {
    if (this.closed || this.running.has(kind)) return;
    const run = this.drain(kind)
      .catch((error: unknown) => this.o.log('Queue replay failed', error))
      .finally(() => {
        this.running.delete(kind);
        // Not while a retry waits for its probe: a failing edit must not be sent again at once.
        if (
          !this.closed &&
          this.state !== false &&
          !this.probeTimer &&
          this.o.known.pending(this.o.account(), kind).length > 0
        )
          this.kick(kind);
      });
    this.running.set(kind, run);
  }

  private async drain(kind: QueueKind): Promise<void> {
    for (;;) {
      const acct = this.o.account();
      if (this.closed || this.state === false || acct === null) return;
      const entry = this.o.known.pending(acct, kind)[0];
      if (!entry) return;
      if (!(await this.replayOne(entry, acct))) return;
    }
  }

  /** Sends one entry and tells its caller and the app; false when the service is unreachable. */
  private async replayOne(entry: OutboxEntry, acct: string): Promise<boolean> {
    const { kind } = entry.intent;
    const { known, emit } = this.o;
    const waiter = this.waiters.get(entry.id);
    const before = known.get(kind, acct)?.etag;
    try {
      const sent = await this.o.sender.send(entry.intent, acct);
      this.probeAttempt = 0;
      await this.settle(entry);
      known.announceIfChanged(kind, acct, before);
      if (sent.cancelled) emit('queue.conflict', { kind, message: stoppedNotice(sent.cancelled), applied: false });
      else if (sent.rebased) emit('queue.conflict', { kind, message: rebasedNotice(entry.intent), applied: true });
      waiter?.resolve(
        this.o.account() === acct ? known.optimistic(sent.queue, acct) : { ...sent.queue, pendingEdits: 0 },
      );
      return true;
    } catch (error) {
      if (kindOf(error) === 'offline') {
        this.park();
        this.answerWaitingOffline(error);
        return false;
      }
      if (this.keptForRetry(entry, error, waiter)) return false;
      // Over the request limit is no refusal: the edit waits its turn and is tried after a backoff.
      if (!waiter && kindOf(error) === 'quota') return (this.scheduleProbe(), false);
      const appError = toAppError(error, this.o.log, 'a queue edit');
      // Nobody waits for this answer (made offline, replayed later): kept, for the person to decide.
      if (!waiter) await this.refuse(entry, appError);
      else await this.settle(entry);
      known.announceIfChanged(kind, acct, before);
      if (appError.kind === 'conflict' && waiter)
        emit('queue.conflict', { kind, message: appError.message, applied: false });
      waiter?.reject(error instanceof ServiceError ? error : new ServiceError(appError));
      return true;
    }
  }

  /**
   * A server failure (5xx): whether the write was made is unknown, so the intent stays in the
   * outbox and is tried again after a backoff (replanned on the queue then, so never doubled),
   * up to MAX_SERVER_FAILURES times. Its caller hears it now, in words.
   */
  private keptForRetry(entry: OutboxEntry, error: unknown, waiter: Waiter | undefined): boolean {
    const e = error instanceof ServiceError ? error.appError : undefined;
    if (e?.kind !== 'server' || e.status === undefined || e.status < 500) return false;
    const failures = (this.failures.get(entry.id) ?? 0) + 1;
    if (failures >= MAX_SERVER_FAILURES) {
      this.failures.delete(entry.id);
      return false;
    }
    this.failures.set(entry.id, failures);
    this.scheduleProbe();
    if (waiter) {
      this.waiters.delete(entry.id);
      waiter.reject(
        new ServiceError({
          ...e,
          message: `${e.message.replace(/\.?$/, '.')} Your change was kept and will be tried again.`,
        }),
      );
    }
    return true;
  }

  /** Kept in the outbox, marked refused with the reason in words: never sent again unasked. */
  private async refuse(entry: OutboxEntry, error: AppError): Promise<void> {
    this.failures.delete(entry.id);
    this.waiters.delete(entry.id);
    await this.refusals.refuse(entry, error);
    this.announceConnectivity();
  }

  private async settle(entry: OutboxEntry): Promise<void> {
    this.failures.delete(entry.id);
    this.waiters.delete(entry.id);
    await this.o.outbox.remove(entry.id).catch(() => undefined); // outbox warns; the list in memory is right
    this.announceConnectivity();
  }

  /**
   * Offline: every caller still waiting gets its answer now, not only this entry's. An edit made
   * while a send or a probe was under way was queued behind it (its drain was running); once that
   * send finds the service unreachable no drain runs until the service is back.
   */
  private answerWaitingOffline(error: unknown): void {
    for (const entry of this.o.known.pending(this.o.account())) {
      const waiter = this.waiters.get(entry.id);
      if (waiter) this.offlineAnswer(entry, waiter, error);
    }
  }

  /** Offline: the caller gets the optimistic queue now; the intent stays in the outbox. */
  private offlineAnswer(entry: OutboxEntry, waiter: Waiter, error?: unknown): void {
    this.waiters.delete(entry.id);
    const queue = this.o.known.current(entry.intent.kind);
    if (queue) {
      this.o.emit('queue.changed', { kind: entry.intent.kind, queue });
      waiter.resolve(queue);
    } else {
      const why = error instanceof ServiceError ? ` (${error.message})` : '';
      waiter.reject(
        new ServiceError({
          kind: 'offline',
          message: `The service cannot be reached${why}: your change was kept and will be made when it is back.`,
        }),
      );
    }
  }

  private park(): void {
    const changed = this.state !== false;
    this.state = false;
    if (changed) this.announceConnectivity();
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.closed || this.probeTimer || this.o.known.pending(this.o.account()).length === 0) return;
    this.probeAttempt++;
    const delay = backoffDelay(this.probeAttempt, {
      baseMs: this.o.retry?.baseMs ?? 1000,
      maxMs: this.o.retry?.maxMs ?? 60_000,
    });
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      this.state = undefined; // the first write is the probe
      for (const kind of KINDS) this.kick(kind);
    }, delay);
    this.probeTimer.unref?.();
  }
}
