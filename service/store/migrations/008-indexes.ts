import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/**
 * A title's members of one type: `titles (parent_id, type, sequence)`. Which titles have discs
 * (store/catalog/read.ts `discHolders`, on every title rendered) asks `parent_id IN (…) AND type =
 * 'disc'`; with only `titles_parent (parent_id, sequence)` and `titles_type_rating (type, …)` to
 * choose from, SQLite took the latter and walked every disc in the catalog for each page of titles.
 * This index answers it with one search per id (covering), and serves the member lists (seasons,
 * episodes, discs of a parent, in sequence order) as well.
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema.createIndex('titles_parent_type').on('titles').columns(['parent_id', 'type', 'sequence']).execute();
}
