import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * Subscribers' instant and disc queues. `queues` holds one row per (user, kind) whose `version` is
 * the queue's ETag; every change locks and bumps it first, which serialises writers. Entries with
 * a null `position` are the saved part (titles not yet released in the queue's format).
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('queues')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('queues_pk', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('queue_items')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('added', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('queue_items_pk', ['user_id', 'kind', 'title_id'])
    .execute();
  await db.schema
    .createIndex('queue_items_position')
    .on('queue_items')
    .columns(['user_id', 'kind', 'position'])
    .execute();
}
