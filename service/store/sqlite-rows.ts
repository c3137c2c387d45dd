import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Runs a fixed SQL text with its parameters and returns its rows as arrays, columns in select order. */
export type ArrayRows = (sql: string, ...parameters: unknown[]) => unknown[][];

/**
 * SQLite reads whose rows come back as arrays (better-sqlite3's raw mode): no object with named
 * properties per row, which cost more than SQLite's own work in a walk over the whole catalog (the
 * index stream reads ≈ 1.2 million rows at 100k titles). `work` runs holding Kysely's one
 * connection, as every Kysely query does, so it never sees half of another caller's transaction.
 */
export interface SqliteRows {
  /** The Kysely instance whose connection it holds: a Db copied onto a transaction's handle must not use it. */
  kysely: Kysely<Database>;
  read<T>(work: (rows: ArrayRows) => T): Promise<T>;
}

export function sqliteRows(kysely: Kysely<Database>, database: SQLiteDatabase): SqliteRows {
  // A handful of fixed texts: kept prepared for the life of the connection.
  const statements = new Map<string, Statement>();
  const rows: ArrayRows = (sql, ...parameters) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql).raw(true);
      statements.set(sql, statement);
    }
    return statement.all(...parameters) as unknown[][];
  };
  return {
    kysely,
    read: (work) => kysely.connection().execute(async () => work(rows)),
  };
}
