import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/** Subscribers and the request tokens of the sign-in flow (CONTRACT.md §5). */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('can_instant_watch', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_maturity_level', 'integer', (c) => c.notNull().defaultTo(1000))
    .addColumn('preferred_formats', 'text', (c) => c.notNull())
    .addColumn('accepted_tos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('feed_token', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('request_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('consumer_key', 'text', (c) => c.notNull().references('consumers.key'))
    /** The callback given at request-token time: a URL, `oob`, or null (an OAuth 1.0 client). */
    .addColumn('callback', 'text')
    .addColumn('user_id', 'text')
    .addColumn('verifier', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
