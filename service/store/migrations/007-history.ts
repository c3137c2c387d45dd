import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * Subscribers' rental history and named title lists (CONTRACT.md §2–3).
 *
 * `rentals`: one row per rental. An instant watch has `watched_date` and `viewed_time` (seconds
 * watched); a disc rental has `shipped_date`, and `returned_date` once back (a shipped disc not yet
 * returned is at home). `updated` is the time of its latest event, which `updated_min` filters on.
 *
 * `lists` / `list_items`: the subscriber's named lists of titles (read-only through the API). List
 * ids are global, so a list id names one subscriber's list only.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('rentals')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('title_id', 'integer', (c) => c.notNull())
    /** instant | DVD | Blu-ray */
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('shipped_date', 'bigint')
    .addColumn('returned_date', 'bigint')
    .addColumn('watched_date', 'bigint')
    .addColumn('viewed_time', 'integer')
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rentals_user_updated').on('rentals').columns(['user_id', 'updated']).execute();

  await db.schema
    .createTable('lists')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lists_user').on('lists').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('list_items')
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('added', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_items_pk', ['list_id', 'position'])
    .execute();
}
