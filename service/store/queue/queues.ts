import { compiledOnce } from '../compiled-once.ts';
import type { Db } from '../db.ts';
import { renumber } from '../../../shared/pure/queue-order.ts';
import { keepQueue, keptQueue } from './entries-cache.ts';
import { planChange } from './plan.ts';
import { queueTransactions } from './sql.ts';
import { StaleQueueError, type QueueItemRow, type QueueStatements, type StoredQueue } from './types.ts';
import type { QueueEntry, QueueKind } from '../../model/queue.ts';
import type { User } from '../../model/user.ts';

export { StaleQueueError } from './types.ts';

export interface QueueState {
  version: number;
  /** Available entries by position (1..n), then saved entries by date added. */
  entries: QueueEntry[];
}

/** A change that turned out to change nothing: rolled back, the version is not bumped. */
class NoChange<R> extends Error {
  readonly version: number;
  readonly queue: StoredQueue;
  readonly result: R;

  constructor(unchanged: { version: number; queue: StoredQueue; result: R }) {
    super('no change');
    ({ version: this.version, queue: this.queue, result: this.result } = unchanged);
  }
}

/** A queue's version alone (0 when it has no row yet): what a kept page is checked against. */
export async function queueVersion(db: Db, userId: string, kind: QueueKind): Promise<number> {
  const [row] = await versionRow(db, userId, kind);
  return Number(row?.version ?? 0);
}

/**
 * The version of the request's subscriber's queue: as the request's own token read took it (not
 * older than the request), else read now. What a repeat GET checks its kept page against.
 */
export async function subscriberQueueVersion(db: Db, user: User, kind: QueueKind): Promise<number> {
  return db.caches.queueVersionsRead.get(user)?.[kind] ?? (await queueVersion(db, user.id, kind));
}

/** Read by every repeat GET of a queue page: compiled once (a prepared statement on PostgreSQL). */
const versionRow = compiledOnce((k) =>
  k.selectFrom('queues').select('version').where('user_id', '=', '').where('kind', '=', 'instant'),
);

/**
 * The whole queue and its version, read consistently: one statement (the queue row left-joined to
 * its entries), so no transaction and no second round trip. No queue row: version 0, no entries.
 */
export async function readQueue(db: Db, userId: string, kind: QueueKind): Promise<QueueState> {
  const rows = await db.kysely
    .selectFrom('queues as q')
    .leftJoin('queue_items as i', (join) => join.onRef('i.user_id', '=', 'q.user_id').onRef('i.kind', '=', 'q.kind'))
    .select(['q.version', 'i.title_id', 'i.position', 'i.format', 'i.added', 'i.updated'])
    .where('q.user_id', '=', userId)
    .where('q.kind', '=', kind)
    .execute();
  const items: QueueItemRow[] = [];
  for (const r of rows) {
    if (r.title_id === null) continue; // the queue row without entries
    items.push({
      title_id: Number(r.title_id),
      position: r.position === null ? null : Number(r.position),
      format: r.format!,
      added: Number(r.added),
      updated: Number(r.updated),
    });
  }
  const version = Number(rows[0]?.version ?? 0);
  const queue = storedQueue(items);
  keepQueue(db, userId, kind, version, queue);
  return { version, entries: [...queue.entries] };
}

/** Rows in queue order (available by key, then saved by date added), the available ones numbered 1..n. */
export function storedQueue(rows: readonly QueueItemRow[]): StoredQueue {
  const sorted = [...rows].sort(queueOrder);
  return { entries: renumber(sorted), keys: sorted.map((r) => r.position) };
}

export function sortEntries(entries: QueueEntry[]): QueueEntry[] {
  return [...entries].sort(queueOrder);
}

/** Queue order: available by position (or key), then saved by date added. */
export function queueOrder(a: QueueEntry, b: QueueEntry): number {
  if (a.position !== null && b.position !== null) return a.position - b.position;
  if (a.position !== null) return -1;
  if (b.position !== null) return 1;
  return a.added - b.added || a.title_id - b.title_id;
}

export interface ChangeOutcome<R> {
  /** The new queue contents in order: positions are renumbered 1..n on write. */
  entries: readonly QueueEntry[];
  result: R;
  /** False: nothing changed; the transaction is rolled back and the version stays. */
  changed?: boolean;
}

/**
 * One change to a queue, all or nothing. In one transaction: lock and bump the queue's version (only
 * if it still is `expected`, when given; else StaleQueueError), creating its row first when it has
 * none, take the entries (kept for the version just bumped from, else read), let `change` compute
 * the new list, number it 1..n and write only the rows whose key or fields changed (a move: one). On PostgreSQL the row lock taken by
 * the UPDATE serialises concurrent writers of the queue; on SQLite the single connection serialises
 * transactions. Errors thrown by `change` roll back. On PostgreSQL a simple change of a queue this
 * process keeps is first tried as one statement (sql-pg-once.ts), so `change` may run twice:
 * it must only compute.
 */
export async function changeQueue<R>(
  db: Db,
  userId: string,
  kind: QueueKind,
  expected: number | undefined,
  change: (entries: readonly QueueEntry[], version: number) => Promise<ChangeOutcome<R>> | ChangeOutcome<R>,
): Promise<{ version: number; entries: readonly QueueEntry[]; result: R; changed: boolean }> {
  try {
    const done = await queueTransactions(db)(userId, kind, async (statements) => {
      const version = await bumpVersion(statements, expected);
      const before = keptQueue(db, userId, kind, version - 1) ?? storedQueue(await statements.rows());
      const outcome = await change(before.entries, version - 1);
      if (outcome.changed === false)
        throw new NoChange({ version: version - 1, queue: before, result: outcome.result });
      const { after, diff } = planChange(before, renumber(outcome.entries));
      await statements.write(diff);
      return { version, queue: after, result: outcome.result };
    });
    keepQueue(db, userId, kind, done.version, done.queue);
    announceCommitted(db);
    return { version: done.version, entries: done.queue.entries, result: done.result, changed: true };
  } catch (error) {
    if (!(error instanceof NoChange)) throw error;
    const unchanged = error as NoChange<R>;
    keepQueue(db, userId, kind, unchanged.version, unchanged.queue);
    return { version: unchanged.version, entries: unchanged.queue.entries, result: unchanged.result, changed: false };
  }
}

/** Wakes the nodes' change feeds (PostgreSQL), unless `db` is a transaction's copy whose commit is still to come. */
function announceCommitted(db: Db): void {
  if (db.prepared?.kysely === db.kysely) db.announceChange?.();
}

/**
 * The bumped version. A queue never written has no row (version 0): it is created only when the
 * first bump finds none, so a change to an existing queue runs one statement for its version.
 */
async function bumpVersion(statements: QueueStatements, expected: number | undefined): Promise<number> {
  let version = await statements.bump(expected);
  if (version === undefined) {
    await statements.create();
    version = await statements.bump(expected);
  }
  if (version === undefined) throw new StaleQueueError();
  return version;
}
