import type { Db } from './db.ts';
import type { QueueDiff } from './queue-diff.ts';
import { kyselyQueueTransactions } from './queue-sql-kysely.ts';
import { sqliteQueueTransactions } from './queue-sql-sqlite.ts';
import type { QueueItemRow, QueueKind } from './queue-types.ts';

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
export type QueueTransactions = <T>(userId: string, kind: QueueKind, work: (statements: QueueStatements) => Promise<T>) => Promise<T>;

const opened = new WeakMap<Db, QueueTransactions>();

/** The dialect's implementation: prepared statements on SQLite; on PostgreSQL one prepared statement for a simple change, else Kysely's query builder. */
export function queueTransactions(db: Db): QueueTransactions {
  let transactions = opened.get(db);
  if (!transactions) {
    const run = db.prepared?.kysely === db.kysely ? db.prepared.run : undefined;
    transactions = db.dialect === 'sqlite' ? sqliteQueueTransactions(db.kysely) : kyselyQueueTransactions(db.kysely, run);
    opened.set(db, transactions);
  }
  return transactions;
}
