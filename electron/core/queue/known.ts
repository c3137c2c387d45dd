import type { Events } from '../../../shared/ipc.ts';
import type { Queue, QueueKind } from '../../../shared/models.ts';
import { applyIntent } from '../../../shared/pure/queue-intent.ts';
import type { OutboxEntry, QueueOutbox } from './outbox.ts';

/** A queue as the app shows it: what the service said plus the edits still waiting (0: none). */
export type SyncedQueue = Queue & { pendingEdits: number };

/**
 * The last full read of each queue, per account, and the optimistic view of it: that read with
 * the account's waiting edits (the outbox) applied locally. Announces 'queue.changed' when a read
 * shows the queue differs from the one known.
 */
export class KnownQueues {
  /** By `${account}\n${kind}`. */
  private readonly known = new Map<string, Queue>();

  constructor(
    private readonly outbox: QueueOutbox,
    private readonly account: () => string | null,
    private readonly emit: (event: 'queue.changed', payload: Events['queue.changed']) => void,
  ) {}

  /** The account's waiting edits (of one kind, or all), oldest first; refused ones wait for the person, not here. */
  pending(acct: string | null, kind?: QueueKind): OutboxEntry[] {
    if (acct === null) return [];
    return this.outbox
      .entries()
      .filter((e) => e.account === acct && !e.refused && (kind === undefined || e.intent.kind === kind));
  }

  /** The account's edits the service refused, kept until the person retries or discards them. */
  refused(acct: string | null): OutboxEntry[] {
    if (acct === null) return [];
    return this.outbox.entries().filter((e) => e.account === acct && e.refused !== undefined);
  }

  get(kind: QueueKind, acct: string | null): Queue | undefined {
    return this.known.get(keyOf(kind, acct));
  }

  /** `base` with the account's waiting edits of its kind applied locally. */
  optimistic(base: Queue, acct: string | null): SyncedQueue {
    let items = [...base.items];
    for (const { intent } of this.pending(acct, base.kind)) items = applyIntent(items, intent);
    return {
      ...base,
      items,
      total: base.total + (items.length - base.items.length),
      pendingEdits: this.pending(acct).length,
    };
  }

  /** The current account's last full read, with its waiting edits applied. */
  current(kind: QueueKind): SyncedQueue | undefined {
    const acct = this.account();
    const base = this.get(kind, acct);
    return base ? this.optimistic(base, acct) : undefined;
  }

  /** Keeps a full read; with `announce`, tells the app when it differs from the one known. */
  remember(queue: Queue, acct: string | null, announce: boolean): void {
    const key = keyOf(queue.kind, acct);
    const before = this.known.get(key);
    this.known.set(key, queue);
    if (announce && before && before.etag !== queue.etag) this.announce(queue.kind, acct);
  }

  /** 'queue.changed' when the queue known now is not the one of etag `before`. */
  announceIfChanged(kind: QueueKind, acct: string, before: string | undefined): void {
    if (this.get(kind, acct)?.etag !== before) this.announce(kind, acct);
  }

  /** 'queue.changed' with the optimistic view, for the account signed in now only. */
  announce(kind: QueueKind, acct: string | null): void {
    const queue = this.get(kind, acct);
    if (queue && acct === this.account()) this.emit('queue.changed', { kind, queue: this.optimistic(queue, acct) });
  }
}

function keyOf(kind: QueueKind, acct: string | null): string {
  return `${acct}\n${kind}`;
}
