import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * PostgreSQL: the queue triggers of 011 still record each change row in the writer's transaction,
 * but no longer NOTIFY from it. A transaction that NOTIFYs holds a cluster-wide lock from its
 * commit until the commit's WAL flush ends, so with durable commits every queue write waited for
 * the one before it (20 writers of 20 rows: ≈ 600 commits/s with the NOTIFY, ≈ 4,000 without).
 * The node that committed announces instead (changes/announce.ts). SQLite has no NOTIFY.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [i, user, kind, subject, value] of QUEUE_RECORDS)
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION changes_${i}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           INSERT INTO changes (user_id, kind, subject, value, at)
           VALUES (${user}, ${kind}, CAST(${subject} AS text), CAST(${value} AS text), extract(epoch FROM now())::bigint);
           RETURN NULL;
         END $$`,
      )
      .execute(db);
}

/** 011's first three records (queues' version, queue_items' insert and delete), as they were. */
const QUEUE_RECORDS = [
  [0, 'NEW.user_id', "'queue'", 'NEW.kind', 'NEW.version'],
  [1, 'NEW.user_id', "'title_state'", 'NEW.kind', 'NEW.title_id'],
  [2, 'OLD.user_id', "'title_state'", 'OLD.kind', 'OLD.title_id'],
] as const;
