import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/** Access tokens: long-lived (CONTRACT §5), revoked by flag so a revoked token stays refused. */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('access_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('consumer_key', 'text', (c) => c.notNull().references('consumers.key'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A subscriber lists and revokes their own tokens.
  await db.schema.createIndex('access_tokens_user').on('access_tokens').columns(['user_id', 'consumer_key']).execute();
}
