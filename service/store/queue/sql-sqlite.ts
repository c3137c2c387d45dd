import { CompiledQuery, type Kysely } from 'kysely';
import type { QueueDiff, QueueItemRow, QueueStatements, QueueTransactions } from './types.ts';
import type { QueueKind } from '../../model/queue.ts';
import type { Database } from '../schema.ts';

/** The statements of a queue change on SQLite: fixed texts, prepared once by the statement cache. */
const SQL = {
  begin: 'begin',
  commit: 'commit',
  rollback: 'rollback',
  bump: 'update queues set version = version + 1 where user_id = ? and kind = ? returning version',
  bumpIf: 'update queues set version = version + 1 where user_id = ? and kind = ? and version = ? returning version',
  create: 'insert into queues (user_id, kind, version) values (?, ?, 0) on conflict (user_id, kind) do nothing',
  rows: 'select title_id, position, format, added, updated from queue_items where user_id = ? and kind = ?',
  remove: 'delete from queue_items where user_id = ? and kind = ? and title_id = ?',
  update:
    'update queue_items set position = ?, format = ?, added = ?, updated = ? where user_id = ? and kind = ? and title_id = ?',
  insert:
    'insert into queue_items (user_id, kind, title_id, position, format, added, updated) values (?, ?, ?, ?, ?, ?, ?)',
} as const;

type Connection = Kysely<Database>;

/**
 * Queue changes on SQLite without the query builder: a move's statements are fixed texts, so
 * building and compiling them per request (Kysely) cost more than running them. They run on
 * Kysely's one connection, held for the whole transaction (its mutex keeps every other query out).
 */
export function sqliteQueueTransactions(k: Kysely<Database>): QueueTransactions {
  return (userId, kind, work) =>
    k.connection().execute(async (conn) => {
      await run(conn, SQL.begin);
      try {
        const result = await work(statementsOn(conn, userId, kind));
        await run(conn, SQL.commit);
        return result;
      } catch (error) {
        await run(conn, SQL.rollback);
        throw error;
      }
    });
}

function run(conn: Connection, text: string, parameters: unknown[] = []): Promise<{ rows: unknown[] }> {
  return conn.executeQuery(CompiledQuery.raw(text, parameters));
}

function statementsOn(conn: Connection, userId: string, kind: QueueKind): QueueStatements {
  return {
    async bump(expected) {
      const { rows } =
        expected === undefined
          ? await run(conn, SQL.bump, [userId, kind])
          : await run(conn, SQL.bumpIf, [userId, kind, expected]);
      const row = rows[0] as { version: number } | undefined;
      return row ? Number(row.version) : undefined;
    },
    async create() {
      await run(conn, SQL.create, [userId, kind]);
    },
    async rows() {
      const { rows } = await run(conn, SQL.rows, [userId, kind]);
      return rows as QueueItemRow[];
    },
    write: (diff) => writeDiff(conn, userId, kind, diff),
  };
}

/** One statement per row: SQLite has no round trips to save, and a move changes one row. */
async function writeDiff(conn: Connection, userId: string, kind: QueueKind, diff: QueueDiff): Promise<void> {
  for (const id of diff.removed) await run(conn, SQL.remove, [userId, kind, id]);
  for (const { entry: e, key } of diff.updated)
    await run(conn, SQL.update, [key, e.format, e.added, e.updated, userId, kind, e.title_id]);
  for (const { entry: e, key } of diff.inserted)
    await run(conn, SQL.insert, [userId, kind, e.title_id, key, e.format, e.added, e.updated]);
}
