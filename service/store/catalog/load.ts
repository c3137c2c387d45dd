import { sql, type Kysely } from 'kysely';
import type { Db } from '../db.ts';
import type { Database } from '../schema.ts';
import { bumpGeneration } from './generation.ts';
import { searchFor } from '../search/index.ts';
import type { FullTextSearch } from '../search/types.ts';
import { createCatalogIndexes, dropCatalogIndexes, readySqliteForLoad } from './sqlite-bulk.ts';
import { CATALOG_TABLES } from './tables.ts';

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

export interface LoadOptions {
  /** Runs inside the load's last transaction, before it commits: marks that must appear with the rows or not at all. */
  finish?: (inLoad: Db) => Promise<void>;
  /** SQLite's page cache for the load, in MB (sqlite-bulk.ts; 256 unless given). */
  pageCacheMb?: number;
}

/**
 * Writes catalog batches, indexing movies, series and people for search as it goes, in one
 * transaction: a load killed midway leaves the catalog as it was (nothing half-visible), and its
 * end bumps the catalog generation (generation.ts), retiring every cached representation, in the
 * same commit. On SQLite with the file to itself the secondary indexes are rebuilt after the rows
 * are in (sqlite-bulk.ts); beside a running service it commits batch by batch, as it used to, so
 * the service's own writes never wait for the whole load. Memory stays bounded by one batch.
 */
export async function loadCatalog(
  db: Db,
  batches: Iterable<CatalogRows> | AsyncIterable<CatalogRows>,
  options: LoadOptions = {},
): Promise<number> {
  const bulk = db.dialect === 'sqlite' ? await readySqliteForLoad(db.kysely, options.pageCacheMb) : undefined;
  try {
    if (bulk?.shared) return await loadBatchByBatch(db, batches, options);
    return await db.kysely.transaction().execute(async (trx) => {
      const indexes = bulk ? await dropCatalogIndexes(trx) : [];
      const titles = await insertBatches(trx, searchFor(db), batches);
      await createCatalogIndexes(trx, indexes);
      await finishLoad({ ...db, kysely: trx }, options);
      return titles;
    });
  } finally {
    await bulk?.restore();
  }
}

/** Beside another connection on SQLite: a transaction per batch, the marks and generation in the last. */
async function loadBatchByBatch(
  db: Db,
  batches: Iterable<CatalogRows> | AsyncIterable<CatalogRows>,
  options: LoadOptions,
): Promise<number> {
  const search = searchFor(db);
  let titles = 0;
  for await (const batch of batches)
    titles += await db.kysely.transaction().execute((trx) => insertBatches(trx, search, [batch]));
  await db.kysely.transaction().execute((trx) => finishLoad({ ...db, kysely: trx }, options));
  return titles;
}

async function finishLoad(inLoad: Db, options: LoadOptions): Promise<void> {
  await bumpGeneration(inLoad);
  await options.finish?.(inLoad);
}

/** Inserts every batch's rows and search entries; returns how many titles they held. */
async function insertBatches(
  trx: Kysely<Database>,
  search: FullTextSearch,
  batches: Iterable<CatalogRows> | AsyncIterable<CatalogRows>,
): Promise<number> {
  let titles = 0;
  for await (const batch of batches) {
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
    titles += batch.titles.length;
  }
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
    for (const table of CATALOG_TABLES) await trx.deleteFrom(table).execute();
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
