import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * The change table a change stream reads by sequence (issue 26): a row per change of a
 * subscriber's queue (its version), of a title's state (an entry added or removed), of a rating, of
 * the catalog generation, and per revoked access token. Written by triggers in the same
 * transaction as the change, so every path (the API, the operator CLI, another node) records it
 * and none can commit a change without its row. On PostgreSQL each row also NOTIFYs
 * `marquee_changes`, so every node wakes at once (store/changes/listen.ts).
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('seq', dialect === 'sqlite' ? 'integer' : 'bigserial', (c) =>
      dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('user_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('changes_at').on('changes').column('at').execute();
  for (const statement of dialect === 'sqlite' ? SQLITE_TRIGGERS : POSTGRES_TRIGGERS)
    await sql.raw(statement).execute(db);
}

/** Each trigger's row: `[table and event, condition, user_id, kind, subject, value]`, in one list for both dialects. */
const RECORDS = [
  ['AFTER UPDATE OF version ON queues', '', 'NEW.user_id', "'queue'", 'NEW.kind', 'NEW.version'],
  ['AFTER INSERT ON queue_items', '', 'NEW.user_id', "'title_state'", 'NEW.kind', 'NEW.title_id'],
  ['AFTER DELETE ON queue_items', '', 'OLD.user_id', "'title_state'", 'OLD.kind', 'OLD.title_id'],
  ['AFTER INSERT ON ratings', '', 'NEW.user_id', "'rating'", 'NEW.title_id', 'NEW.rating'],
  ['AFTER UPDATE OF rating ON ratings', '', 'NEW.user_id', "'rating'", 'NEW.title_id', 'NEW.rating'],
  ['AFTER DELETE ON ratings', '', 'OLD.user_id', "'rating'", 'OLD.title_id', 'NULL'],
  ['AFTER INSERT ON meta', "NEW.key = 'catalog_generation'", 'NULL', "'catalog'", "'generation'", 'NEW.value'],
  ['AFTER UPDATE ON meta', "NEW.key = 'catalog_generation'", 'NULL', "'catalog'", "'generation'", 'NEW.value'],
  [
    'AFTER UPDATE OF revoked ON access_tokens',
    'NEW.revoked <> 0 AND OLD.revoked = 0',
    'NEW.user_id',
    "'revoked'",
    'NEW.token',
    'NULL',
  ],
] as const;

const SQLITE_TRIGGERS = RECORDS.map(
  ([on, when, user, kind, subject, value], i) =>
    `CREATE TRIGGER changes_${i} ${on} FOR EACH ROW ${when ? `WHEN ${when} ` : ''}BEGIN
       INSERT INTO changes (user_id, kind, subject, value, at)
       VALUES (${user}, ${kind}, CAST(${subject} AS TEXT), CAST(${value} AS TEXT), CAST(strftime('%s', 'now') AS INTEGER));
     END`,
);

const POSTGRES_TRIGGERS = RECORDS.flatMap(([on, when, user, kind, subject, value], i) => [
  `CREATE FUNCTION changes_${i}() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO changes (user_id, kind, subject, value, at)
     VALUES (${user}, ${kind}, CAST(${subject} AS text), CAST(${value} AS text), extract(epoch FROM now())::bigint);
     PERFORM pg_notify('marquee_changes', '');
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER changes_${i} ${on} FOR EACH ROW ${when ? `WHEN (${when}) ` : ''}EXECUTE FUNCTION changes_${i}()`,
]);
