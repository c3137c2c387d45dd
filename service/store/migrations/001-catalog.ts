import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/** The catalog, the consumers that may call the service, and the nonces they have used. */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('titles')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('short_title', 'text', (c) => c.notNull())
    .addColumn('release_year', 'integer')
    .addColumn('runtime', 'integer')
    .addColumn('average_rating', 'real')
    .addColumn('mpaa_rating', 'text')
    .addColumn('tv_rating', 'text')
    .addColumn('parent_id', 'integer')
    .addColumn('series_id', 'integer')
    .addColumn('sequence', 'integer')
    .addColumn('synopsis', 'text', (c) => c.notNull())
    .addColumn('short_synopsis', 'text', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('titles_parent').on('titles').columns(['parent_id', 'sequence']).execute();
  await db.schema.createIndex('titles_type').on('titles').columns(['type', 'id']).execute();

  await db.schema
    .createTable('title_genres')
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('genre', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('title_genres_pk', ['title_id', 'genre'])
    .execute();
  await db.schema.createIndex('title_genres_genre').on('title_genres').columns(['genre', 'title_id']).execute();

  await db.schema
    .createTable('availability')
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('available_from', 'bigint', (c) => c.notNull())
    .addColumn('available_until', 'bigint')
    .addPrimaryKeyConstraint('availability_pk', ['title_id', 'format'])
    .execute();

  await db.schema
    .createTable('people')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credits')
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('credits_pk', ['title_id', 'role', 'person_id'])
    .execute();
  await db.schema.createIndex('credits_person').on('credits').columns(['person_id', 'title_id']).execute();

  await db.schema
    .createTable('similars')
    .addColumn('title_id', 'integer', (c) => c.notNull())
    .addColumn('similar_id', 'integer', (c) => c.notNull())
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('similars_pk', ['title_id', 'similar_id'])
    .execute();

  await db.schema
    .createTable('title_details')
    .addColumn('title_id', 'integer', (c) => c.primaryKey())
    .addColumn('screen_formats', 'text', (c) => c.notNull())
    .addColumn('languages_and_audio', 'text', (c) => c.notNull())
    .addColumn('awards', 'text', (c) => c.notNull())
    .addColumn('bonus_materials', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('consumers')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('legacy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('per_second', 'integer')
    .addColumn('per_day', 'integer')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nonces')
    .addColumn('consumer_key', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('nonces_pk', ['consumer_key', 'token', 'timestamp', 'nonce'])
    .execute();
  await db.schema.createIndex('nonces_timestamp').on('nonces').column('timestamp').execute();

  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  if (dialect === 'sqlite') {
    // Contentless FTS5 indexes: rowid = title or person id.
    await sql`CREATE VIRTUAL TABLE title_search USING fts5(title, content='', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3')`.execute(
      db,
    );
    await sql`CREATE VIRTUAL TABLE person_search USING fts5(name, content='', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3')`.execute(
      db,
    );
  } else {
    await sql`CREATE TABLE title_search (id integer PRIMARY KEY, document tsvector NOT NULL, popularity real NOT NULL)`.execute(
      db,
    );
    await sql`CREATE INDEX title_search_document ON title_search USING gin (document)`.execute(db);
    await sql`CREATE TABLE person_search (id integer PRIMARY KEY, document tsvector NOT NULL)`.execute(db);
    await sql`CREATE INDEX person_search_document ON person_search USING gin (document)`.execute(db);
  }
}
