import type { Db } from '../db.ts';
import { kyselyQueueTransactions } from './sql-kysely.ts';
import { sqliteQueueTransactions } from './sql-sqlite.ts';
import type { QueueTransactions } from './types.ts';

/** The dialect's implementation, made once per database: Kysely's query builder on PostgreSQL, prepared statements on SQLite. */
export function queueTransactions(db: Db): QueueTransactions {
  return (db.caches.queueTransactions ??= db.dialect === 'sqlite' ? sqliteQueueTransactions(db.kysely) : kyselyQueueTransactions(db.kysely));
}
