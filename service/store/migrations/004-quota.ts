import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * Per-consumer quota counters (CONTRACT §6). One row per consumer and window: `s:<unix second>`
 * for the per-second budget, `d:<yyyy-mm-dd UTC>` for the per-day one. They live in the database
 * so that every service node sharing it charges the same budget.
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('quota_counters')
    .addColumn('consumer_key', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_counters_pk', ['consumer_key', 'window'])
    .execute();
}
