import type { Db } from '../db.ts';
import { keptVersion } from './entries-cache.ts';
import { kyselyQueueTransactions } from './sql-kysely.ts';
import { sqliteQueueTransactions } from './sql-sqlite.ts';
import type { QueueTransactions } from './types.ts';

/**
 * The dialect's implementation, made once per database: prepared statements on SQLite; on
 * PostgreSQL one prepared statement for a simple change, else Kysely's query builder.
 */
export function queueTransactions(db: Db): QueueTransactions {
  const run = db.prepared?.kysely === db.kysely ? db.prepared.run : undefined;
  return (db.caches.queueTransactions ??=
    db.dialect === 'sqlite'
      ? sqliteQueueTransactions(db.kysely)
      : kyselyQueueTransactions(db.kysely, run, (userId, kind) => keptVersion(db, userId, kind)));
}
