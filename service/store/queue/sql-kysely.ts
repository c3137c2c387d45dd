import { sql, type Kysely, type Transaction } from 'kysely';
import type { StatementRunner } from '../pg-prepared.ts';
import type { Database } from '../schema.ts';
import type { QueueKind } from '../../model/queue.ts';
import { changeInOneStatement } from './sql-pg-once.ts';
import type { QueueDiff, QueueRow, QueueStatements, QueueTransactions } from './types.ts';

/** Rows past which the one-by-one updates of a change are rewritten in bulk (delete + insert). */
const BULK_REWRITE = 20;

/**
 * Queue changes on PostgreSQL. A simple change of a queue this process keeps goes as one prepared
 * statement (sql-pg-once.ts: one round trip instead of BEGIN, bump, write, COMMIT); anything
 * else, or when another writer came first, through Kysely in a transaction. Either way the UPDATE
 * of the queue's row takes its row lock first, which serialises writers of one queue across nodes.
 */
export function kyselyQueueTransactions(
  k: Kysely<Database>,
  run?: StatementRunner,
  keptVersion?: (userId: string, kind: QueueKind) => number | undefined,
): QueueTransactions {
  return async (userId, kind, work) => {
    const kept = run ? keptVersion?.(userId, kind) : undefined;
    if (run && kept !== undefined) {
      const done = await changeInOneStatement(run, userId, kind, kept, work);
      if (done) return done.value;
    }
    return k.transaction().execute((trx) => work(statementsOn(trx, userId, kind)));
  };
}

function statementsOn(trx: Transaction<Database>, userId: string, kind: QueueKind): QueueStatements {
  return {
    async bump(expected) {
      let bump = trx
        .updateTable('queues')
        .set({ version: sql<number>`version + 1` })
        .where('user_id', '=', userId)
        .where('kind', '=', kind);
      if (expected !== undefined) bump = bump.where('version', '=', expected);
      const row = await bump.returning('version').executeTakeFirst();
      return row ? Number(row.version) : undefined;
    },
    async create() {
      await trx
        .insertInto('queues')
        .values({ user_id: userId, kind, version: 0 })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
        .execute();
    },
    async rows() {
      const rows = await trx
        .selectFrom('queue_items')
        .select(['title_id', 'position', 'format', 'added', 'updated'])
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .execute();
      return rows.map((r) => ({
        ...r,
        title_id: Number(r.title_id),
        position: r.position === null ? null : Number(r.position),
        added: Number(r.added),
        updated: Number(r.updated),
      }));
    },
    write: (diff) => writeDiff(trx, userId, kind, diff),
  };
}

async function writeDiff(trx: Transaction<Database>, userId: string, kind: QueueKind, diff: QueueDiff): Promise<void> {
  const remove = (ids: number[]) =>
    trx
      .deleteFrom('queue_items')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('title_id', 'in', ids)
      .execute();
  for (let i = 0; i < diff.removed.length; i += 500) await remove(diff.removed.slice(i, i + 500));
  const inserted = [...diff.inserted];
  // Many changed rows (a respace of the keys): rewrite them in bulk.
  if (diff.updated.length > BULK_REWRITE) {
    const ids = diff.updated.map((r) => r.entry.title_id);
    for (let i = 0; i < ids.length; i += 500) await remove(ids.slice(i, i + 500));
    inserted.push(...diff.updated);
  } else {
    for (const row of diff.updated) await updateRow(trx, userId, kind, row);
  }
  for (let i = 0; i < inserted.length; i += 200) {
    await trx
      .insertInto('queue_items')
      .values(inserted.slice(i, i + 200).map((r) => ({ user_id: userId, kind, ...r.entry, position: r.key })))
      .execute();
  }
}

function updateRow(trx: Transaction<Database>, userId: string, kind: QueueKind, { entry, key }: QueueRow) {
  return trx
    .updateTable('queue_items')
    .set({ position: key, format: entry.format, added: entry.added, updated: entry.updated })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('title_id', '=', entry.title_id)
    .execute();
}
