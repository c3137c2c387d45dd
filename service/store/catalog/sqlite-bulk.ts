import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { CATALOG_TABLES } from './tables.ts';

/** How a SQLite load may write: alone in one transaction, or batch by batch beside another connection. */
export interface SqliteBulk {
  /** Another connection holds the file (a running service): the load commits batch by batch so its writes go on. */
  shared: boolean;
  /** Puts the journal, page cache and checkpoint back as they were. */
  restore(): Promise<void>;
}

/** The load's page cache unless the operator names another (`seed --page-cache-mb`). */
export const LOAD_PAGE_CACHE_MB = 256;
/** The largest page cache a load may be given: 64 GB, far past any file this catalog makes. */
export const MAX_LOAD_PAGE_CACHE_MB = 65_536;

/**
 * Readies SQLite for a large load. A page cache of `pageCacheMb` (256 MB by default: SQLite's own
 * 2 MB rereads and rewrites the growing B-trees and full-text segments on every batch) in every
 * case; a smaller one spills the load's pages to the file sooner. When this connection is the
 * file's only one, the rollback journal instead of WAL: the load is then one transaction whose
 * new pages are written once, straight into the file (WAL writes every page twice: to the log, then
 * back at the checkpoint), and a load killed midway leaves a hot journal that the next open rolls
 * back. When another connection holds the file, WAL stays, with checkpoints every 64 MB instead of 4.
 */
export async function readySqliteForLoad(
  kysely: Kysely<Database>,
  pageCacheMb = LOAD_PAGE_CACHE_MB,
): Promise<SqliteBulk> {
  // It goes into the PRAGMA's text: only a whole number in range may.
  if (!Number.isInteger(pageCacheMb) || pageCacheMb < 1 || pageCacheMb > MAX_LOAD_PAGE_CACHE_MB)
    throw new RangeError(`the load's page cache must be 1 to ${MAX_LOAD_PAGE_CACHE_MB} MB, not ${pageCacheMb}`);
  const cacheSize = await pragma(kysely, 'cache_size');
  const checkpoint = await pragma(kysely, 'wal_autocheckpoint');
  const shared = !(await claimRollbackJournal(kysely));
  // A negative cache_size counts KiB, not pages.
  await sql.raw(`PRAGMA cache_size = ${-pageCacheMb * 1024}`).execute(kysely);
  await sql.raw('PRAGMA wal_autocheckpoint = 16384').execute(kysely);
  return {
    shared,
    async restore() {
      await sql.raw(`PRAGMA cache_size = ${Number(cacheSize)}`).execute(kysely);
      await sql.raw(`PRAGMA wal_autocheckpoint = ${Number(checkpoint)}`).execute(kysely);
      if (!shared) await sql.raw('PRAGMA journal_mode = WAL').execute(kysely);
    },
  };
}

/** Leaving WAL needs the file to itself: with another connection open SQLite refuses at once (no busy wait). */
async function claimRollbackJournal(kysely: Kysely<Database>): Promise<boolean> {
  const timeout = await pragma(kysely, 'busy_timeout');
  await sql.raw('PRAGMA busy_timeout = 0').execute(kysely);
  try {
    return (await pragma(kysely, 'journal_mode = DELETE')) === 'delete';
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    await sql.raw(`PRAGMA busy_timeout = ${Number(timeout)}`).execute(kysely);
  }
}

/** A catalog table's own index, as its migration created it (`sql` is that statement's text). */
export interface CatalogIndex {
  name: string;
  sql: string;
}

/**
 * Drops the catalog's secondary indexes inside the load's transaction, returning what rebuilds
 * them: one sort of the finished table costs a fraction of a B-tree insert per row in random key
 * order (credits by person, genres). Primary keys stay. A load cut short rolls the drop back too.
 */
export async function dropCatalogIndexes(trx: Kysely<Database>): Promise<CatalogIndex[]> {
  const tables = sql.join(CATALOG_TABLES.map((t) => sql.lit(t)));
  const { rows } = await sql<CatalogIndex>`SELECT name, sql FROM sqlite_master
    WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables}) ORDER BY name`.execute(trx);
  for (const index of rows) await trx.schema.dropIndex(index.name).execute();
  return rows;
}

/** Creates the dropped indexes again with their own statements, so the schema reads as before. */
export async function createCatalogIndexes(trx: Kysely<Database>, indexes: CatalogIndex[]): Promise<void> {
  for (const index of indexes) await sql.raw(index.sql).execute(trx);
}

async function pragma(kysely: Kysely<Database>, statement: string): Promise<unknown> {
  return Object.values(
    (await sql.raw<Record<string, unknown>>(`PRAGMA ${statement}`).execute(kysely)).rows[0] ?? {},
  )[0];
}
