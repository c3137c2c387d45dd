import type { CompiledQuery } from 'kysely';
import type { Consumer } from '../model/consumer.ts';
import type { QueueKind } from '../model/queue.ts';
import type { Recommendation } from '../model/rating.ts';
import type { TitleRecord } from '../model/title.ts';
import type { User } from '../model/user.ts';
import type { QueueTransactions, StoredQueue } from './queue/types.ts';

/**
 * What this process keeps of one database between requests, each member read and written by the
 * module named beside it. Held by the `Db` (db.ts), so a second database (a test's, a second store
 * on one process) keeps its own; nothing here is shared through module state.
 */
export interface StoreCaches {
  /** Statements compiled once, by the statement (compiled-once.ts). */
  compiled: Map<object, CompiledQuery<unknown>>;
  /** Consumers by key, each until `until` (ms) (oauth/consumer-cache.ts). */
  consumers: Map<string, { consumer: Consumer; until: number }>;
  /** The catalog generation as last read, trusted until `until` (ms) (catalog/generation.ts). */
  generation: { value: number; until: number } | undefined;
  /** Title records of one catalog generation (catalog/title-cache.ts). */
  titles: { generation: number; records: Map<number, TitleRecord> } | undefined;
  /** Queues' entries as of a version, by `<user> <kind>`, least recently kept first (queue/entries-cache.ts). */
  queues: Map<string, { version: number; queue: StoredQueue }>;
  /**
   * Queue versions read with a request's access token, by the subscriber object that read made
   * (fresh per request), so no other request sees them (oauth/tokens.ts, queue/queues.ts).
   */
  queueVersionsRead: WeakMap<User, Record<QueueKind, number>>;
  /** PostgreSQL: the batcher of access-token reads, per statement runner (oauth/tokens.ts). */
  tokenReads: WeakMap<object, unknown>;
  /** The dialect's queue transactions, made on first use (queue/sql.ts). */
  queueTransactions: QueueTransactions | undefined;
  /** Recommendations by `<user> <limit>`, with what they were computed from (recommend/recommendation-cache.ts). */
  recommendations: Map<string, { fingerprint: string; list: Recommendation[] }>;
}

/** Empty caches for a database just opened. */
export function emptyCaches(): StoreCaches {
  return {
    compiled: new Map(),
    consumers: new Map(),
    generation: undefined,
    titles: undefined,
    queues: new Map(),
    queueVersionsRead: new WeakMap(),
    tokenReads: new WeakMap(),
    queueTransactions: undefined,
    recommendations: new Map(),
  };
}
