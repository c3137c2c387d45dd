import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * Subscribers' title ratings (CONTRACT.md §3). One row per (user, title): `rating` 1–5 stars, or 0
 * for "not interested"; "no opinion" is the absence of a row. `updated` orders the subscriber's
 * ratings feed (newest first).
 *
 * The recommender's top-rated fallback reads the best-rated movies and series; `titles_type_rating`
 * lets it do so from an index instead of sorting the catalog on every request.
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('ratings')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ratings_pk', ['user_id', 'title_id'])
    .execute();
  await db.schema
    .createIndex('ratings_user_updated')
    .on('ratings')
    .columns(['user_id', 'updated', 'title_id'])
    .execute();
  await db.schema.createIndex('titles_type_rating').on('titles').columns(['type', 'average_rating']).execute();
}
