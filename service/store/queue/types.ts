/** What every queue module of the store shares: the stale-version error, the stored queue and its rows. */
import type { QueueEntry, QueueKind } from '../../model/queue.ts';

/** The queue was changed since the version the client named. */
export class StaleQueueError extends Error {
  constructor() {
    super('stale queue version');
    this.name = 'StaleQueueError';
  }
}

/**
 * A queue as stored: its entries in queue order (available ones numbered 1..n) and, index for
 * index, each one's order key (the `position` column; null for a saved entry). Keys are sparse, so
 * a move rewrites one row; readers only ever see the numbers 1..n.
 */
export interface StoredQueue {
  entries: readonly QueueEntry[];
  keys: readonly (number | null)[];
}

/** A row of `queue_items` as read: `position` holds the order key, not the number readers see. */
export interface QueueItemRow {
  title_id: number;
  position: number | null;
  format: string;
  added: number;
  updated: number;
}

/** A row to write: the entry and its order key (null: saved). */
export interface QueueRow {
  entry: QueueEntry;
  key: number | null;
}

/** The rows a queue change writes, computed once for both dialects (sql-*.ts apply it). */
export interface QueueDiff {
  /** Title ids whose rows are deleted. */
  removed: number[];
  updated: QueueRow[];
  inserted: QueueRow[];
}

/** The statements of one queue change, on one queue, inside its transaction. */
export interface QueueStatements {
  /** Bumps the version by one if it still is `expected` (any, when undefined): the new version, or undefined (stale, or no row). */
  bump(expected: number | undefined): Promise<number | undefined>;
  /** Creates the queue's row at version 0 unless it exists. */
  create(): Promise<void>;
  /** The queue's rows, in no particular order. */
  rows(): Promise<QueueItemRow[]>;
  write(diff: QueueDiff): Promise<void>;
}

/**
 * Runs `work` on one queue in a transaction: committed when it returns, rolled back when it throws.
 * The promise settles only after the commit (or rollback), so an acknowledged change is committed.
 */
export type QueueTransactions = <T>(
  userId: string,
  kind: QueueKind,
  work: (statements: QueueStatements) => Promise<T>,
) => Promise<T>;
