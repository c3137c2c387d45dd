import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import type { Change } from '../../model/change.ts';
import { CHANGES_KEPT_SECONDS, pruneChanges } from '../../store/changes/read.ts';
import { eventsOf, eventText, type StreamEvent } from './events.ts';
import { ChangeFeed } from './feed.ts';
import { Heartbeats } from './heartbeats.ts';
import type { ChangeStream } from './stream.ts';

/** Bounds of a node's change streams (plugin options; tests lower them). */
export interface StreamLimits {
  /** Open streams one subscriber may hold on a node. */
  perUser: number;
  /** Open streams one consumer (application) may hold on a node. */
  perConsumer: number;
  /** Bytes a stream may have waiting for a client that does not read; more, and it is dropped. */
  maxBufferedBytes: number;
  /** A comment this often keeps proxies (and the service's own idle limit) from closing a quiet stream. */
  heartbeatMs: number;
  /** How often, while streams are open, the store is asked for changes besides the wakes (SQLite: see feed.ts `poll`). */
  pollMs: number;
}

export function defaultStreamLimits(dialect: 'sqlite' | 'postgres'): StreamLimits {
  return {
    perUser: 8,
    perConsumer: 2_000,
    maxBufferedBytes: 256 * 1024,
    // Half the service's own 60 s idle limit, and under the 45–60 s that EventSource polyfills and
    // proxies (nginx, load balancers) allow a silent response by default; an idle stream's only cost.
    heartbeatMs: 30_000,
    // PostgreSQL's NOTIFY wakes every node at once; SQLite hears another process (the CLI) only by reading.
    pollMs: dialect === 'postgres' ? 5_000 : 1_000,
  };
}

export const TOO_MANY_FOR_USER = 'Too many open change streams for this subscriber; close one and retry';
export const TOO_MANY_FOR_CONSUMER = 'Too many open change streams for this application; close some and retry';
export const STREAM_RETRY_AFTER_SECONDS = 30;

const PRUNE_MS = 3_600_000;

/**
 * A node's open change streams, by subscriber and by consumer, fed by one reader of the change
 * table: each row is turned into its event once and written to the streams it is for.
 */
export class ChangeHub {
  private readonly byUser = new Map<string, Set<ChangeStream>>();
  private readonly byConsumer = new Map<string, number>();
  private readonly feed: ChangeFeed;
  private readonly heartbeats: Heartbeats;
  private poller: NodeJS.Timeout | undefined;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    private readonly svc: ServiceContext,
    readonly limits: StreamLimits,
  ) {
    this.feed = new ChangeFeed(svc.db, (changes) => this.deliver(changes));
    this.heartbeats = new Heartbeats(limits.heartbeatMs);
    this.pruner = setInterval(() => void this.prune(), PRUNE_MS).unref();
  }

  get open(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Refuses a stream over a limit (429 with the contract's status body), before any byte is sent. */
  admit(userId: string, consumerKey: string): void {
    if ((this.byUser.get(userId)?.size ?? 0) >= this.limits.perUser) throw new ApiError(429, TOO_MANY_FOR_USER);
    if ((this.byConsumer.get(consumerKey) ?? 0) >= this.limits.perConsumer)
      throw new ApiError(429, TOO_MANY_FOR_CONSUMER);
  }

  /** Where the feed has read to, once it has started: a fresh stream's first id. */
  async position(): Promise<number> {
    await this.feed.start();
    // With no stream open an SQLite node reads nothing: caught up first, a fresh stream is not sent the backlog.
    if (this.byUser.size === 0) await this.feed.catchUp();
    return this.feed.last;
  }

  add(stream: ChangeStream): void {
    let set = this.byUser.get(stream.userId);
    if (!set) this.byUser.set(stream.userId, (set = new Set()));
    set.add(stream);
    this.byConsumer.set(stream.consumerKey, (this.byConsumer.get(stream.consumerKey) ?? 0) + 1);
    this.heartbeats.add(stream);
    this.poller ??= setInterval(() => void this.feed.poll(), this.limits.pollMs).unref();
  }

  remove(stream: ChangeStream): void {
    const set = this.byUser.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) this.byUser.delete(stream.userId);
    this.heartbeats.remove(stream);
    const left = (this.byConsumer.get(stream.consumerKey) ?? 1) - 1;
    if (left <= 0) this.byConsumer.delete(stream.consumerKey);
    else this.byConsumer.set(stream.consumerKey, left);
    if (this.byUser.size === 0) this.stopPolling();
  }

  /** A write on this node: read the table now rather than at the next poll. */
  wake(): void {
    if (this.byUser.size > 0) this.feed.wake();
  }

  /** Ends every stream and stops reading (the service is stopping). */
  async close(): Promise<void> {
    clearInterval(this.pruner);
    this.heartbeats.close();
    this.stopPolling();
    for (const set of [...this.byUser.values()]) for (const s of [...set]) s.end();
    this.byUser.clear();
    this.byConsumer.clear();
    await this.feed.stop();
  }

  /** Events of rows a stream replays (its own and the catalog's), formatted as the feed would. */
  replayEvents(changes: readonly Change[]): Promise<StreamEvent[]> {
    return eventsOf(this.svc, changes);
  }

  private async deliver(changes: Change[]): Promise<void> {
    if (this.byUser.size === 0) return; // rows read to catch up, for no one
    for (const c of changes) if (c.kind === 'revoked') this.endRevoked(c);
    for (const event of await eventsOf(this.svc, changes)) {
      const targets = event.userId === null ? this.allStreams() : (this.byUser.get(event.userId) ?? []);
      for (const s of targets) s.send(event.seq, event.text);
    }
  }

  private endRevoked(c: Change): void {
    for (const s of this.byUser.get(c.userId ?? '') ?? [])
      if (s.token === c.subject) s.end(eventText(c.seq, 'revoked', { message: 'The access token was revoked' }));
  }

  private *allStreams(): Iterable<ChangeStream> {
    for (const set of this.byUser.values()) yield* set;
  }

  private stopPolling(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }

  private async prune(): Promise<void> {
    await pruneChanges(this.svc.db, this.svc.now() - CHANGES_KEPT_SECONDS).catch(() => undefined);
  }
}
