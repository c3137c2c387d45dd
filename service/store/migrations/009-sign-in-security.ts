import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * Sign-in hardening (issue 10): the origin an OAuth 1.0 consumer registered for callbacks named on
 * the login URL (`consumers add --callback-origin`), and an index to purge expired request tokens.
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('consumers').addColumn('callback_origin', 'text').execute();
  await db.schema.createIndex('request_tokens_created').on('request_tokens').column('created').execute();
}
