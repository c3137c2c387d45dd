import { sql, type Kysely } from 'kysely';
import type { Db } from '../db.ts';
import type { Database } from '../schema.ts';
import { bumpGeneration } from './generation.ts';
import { searchFor } from '../search/index.ts';

/** One chunk of catalog rows, as the seeders in service/data produce them. */
export interface CatalogRows {
  titles: Database['titles'][];
  genres: Database['title_genres'][];
  availability: Database['availability'][];
  credits: Database['credits'][];
  people: Database['people'][];
  similars: Database['similars'][];
  details: Database['title_details'][];
}

/** Rows per INSERT: keeps every statement under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 400;

/**
 * Writes catalog batches, one transaction per batch, indexing movies, series and people for
 * search as it goes. Memory stays bounded by one batch whatever the catalog's size. Bumps the
 * catalog generation (generation.ts) at the end, which retires every cached representation.
 */
export async function loadCatalog(
  db: Db,
  batches: Iterable<CatalogRows> | AsyncIterable<CatalogRows>,
): Promise<number> {
  const search = searchFor(db);
  let titles = 0;
  for await (const batch of batches) {
    await db.kysely.transaction().execute(async (trx) => {
      await insertAll(trx, 'titles', batch.titles);
      await insertAll(trx, 'title_genres', batch.genres);
      await insertAll(trx, 'availability', batch.availability);
      await insertAll(trx, 'people', batch.people);
      await insertAll(trx, 'credits', batch.credits);
      await insertAll(trx, 'similars', batch.similars);
      await insertAll(trx, 'title_details', batch.details);
      const searchable = batch.titles
        .filter((t) => t.type === 'movie' || t.type === 'series')
        .map((t) => ({ id: t.id, title: t.title, popularity: t.average_rating ?? 0 }));
      for (let i = 0; i < searchable.length; i += CHUNK) await search.indexTitles(trx, searchable.slice(i, i + CHUNK));
      for (let i = 0; i < batch.people.length; i += CHUNK)
        await search.indexPeople(trx, batch.people.slice(i, i + CHUNK));
    });
    titles += batch.titles.length;
  }
  await bumpGeneration(db);
  return titles;
}

async function insertAll<T extends keyof Database>(
  trx: Kysely<Database>,
  table: T,
  rows: Database[T][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    // Kysely's generic insert typing cannot follow a table chosen at run time.
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
}

/** Empties every catalog table (an interrupted first load is redone from scratch). */
export async function clearCatalog(db: Db): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    for (const table of [
      'titles',
      'title_genres',
      'availability',
      'credits',
      'people',
      'similars',
      'title_details',
    ] as const) {
      await trx.deleteFrom(table).execute();
    }
    if (db.dialect === 'sqlite') {
      // Contentless FTS5 tables refuse DELETE; 'delete-all' is their way to empty them.
      await sql`INSERT INTO title_search(title_search) VALUES ('delete-all')`.execute(trx);
      await sql`INSERT INTO person_search(person_search) VALUES ('delete-all')`.execute(trx);
    } else {
      await sql`DELETE FROM title_search`.execute(trx);
      await sql`DELETE FROM person_search`.execute(trx);
    }
  });
  await bumpGeneration(db);
}
