import { sql } from 'kysely';
import type { Db } from '../db.ts';

/**
 * SQLite: a mark that moves whenever anything was committed to the database since it was last
 * read: by another connection or process (`PRAGMA data_version`, e.g. the `catalog availability`
 * CLI) or by this one (`total_changes()`). It costs a fraction of reading the change table, so an
 * idle node's poll asks it first. PostgreSQL: undefined (its nodes hear changes through NOTIFY).
 */
export async function commitMark(db: Db): Promise<string | undefined> {
  if (db.dialect !== 'sqlite') return undefined;
  const { rows } = await sql<{ version: number; changed: number }>`
    SELECT (SELECT data_version FROM pragma_data_version) AS version, total_changes() AS changed
  `.execute(db.kysely);
  const row = rows[0];
  return row && `${row.version}:${row.changed}`;
}
