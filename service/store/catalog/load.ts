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
  const restore = db.dialect === 'sqlite' ? await widenSqliteForLoad(db.kysely) : undefined;
  try {
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
        for (let i = 0; i < searchable.length; i += CHUNK)
          await search.indexTitles(trx, searchable.slice(i, i + CHUNK));
        for (let i = 0; i < batch.people.length; i += CHUNK)
          await search.indexPeople(trx, batch.people.slice(i, i + CHUNK));
      });
      titles += batch.titles.length;
    }
  } finally {
    await restore?.();
  }
  await bumpGeneration(db);
  return titles;
}

/**
 * A large load on SQLite: a 256 MB page cache (the default 2 MB rereads and rewrites the growing
 * B-trees and full-text segments from the OS on every batch) and checkpoints every 64 MB of WAL
 * instead of 4 MB (a hot page is copied back once per checkpoint, not once per batch). Returns
 * what puts both back, so a running service that loaded its catalog keeps its usual footprint.
 */
async function widenSqliteForLoad(kysely: Kysely<Database>): Promise<() => Promise<void>> {
  const pragma = async (name: string) =>
    Object.values((await sql.raw<Record<string, number>>(`PRAGMA ${name}`).execute(kysely)).rows[0] ?? {})[0];
  const [cacheSize, checkpoint] = [await pragma('cache_size'), await pragma('wal_autocheckpoint')];
  await sql.raw('PRAGMA cache_size = -262144').execute(kysely);
  await sql.raw('PRAGMA wal_autocheckpoint = 16384').execute(kysely);
  return async () => {
    await sql.raw(`PRAGMA cache_size = ${Number(cacheSize)}`).execute(kysely);
    await sql.raw(`PRAGMA wal_autocheckpoint = ${Number(checkpoint)}`).execute(kysely);
  };
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
