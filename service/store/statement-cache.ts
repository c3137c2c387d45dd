import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';

/** Distinct SQL texts kept prepared; IN-lists of varying length make the set open-ended. */
const MAX_STATEMENTS = 512;

/**
 * Kysely prepares every statement anew on each run, which costs more than most of our queries take
 * to execute. This hands it the same prepared statement for the same SQL text (least recently used
 * dropped first). Safe because better-sqlite3 runs each statement to completion synchronously.
 */
export function withStatementCache(database: SQLiteDatabase): SQLiteDatabase {
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (statement) {
      statements.delete(sql); // re-inserted below: Map order is recency
    } else {
      statement = database.prepare(sql);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
  return new Proxy(database, {
    get(target, property, receiver): unknown {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
