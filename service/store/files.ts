import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDb, type Db, type OpenDbOptions, type StoreLocation } from './db.ts';

/** Owner-only: the store holds token and consumer secrets and the demo password. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Opens the store, its SQLite file and folder private to the user running the service (also
 * tightening those an earlier version created 0644/0755), and says which file or setting failed.
 */
export async function openStore(location: StoreLocation, options: OpenDbOptions = {}): Promise<Db> {
  if ('sqlitePath' in location) protectSqliteFiles(location.sqlitePath);
  try {
    return await openDb(location, options);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if ('sqlitePath' in location)
      throw new Error(
        `cannot open the database file ${location.sqlitePath}: ${why} (move it away to start afresh, or restore a backup)`,
      );
    throw new Error(
      `cannot open the PostgreSQL database of --database-url (or DATABASE_URL) at ${hostOf(location.databaseUrl)}: ${why}`,
    );
  }
}

/** The folder 0700, the database and its WAL and shared-memory files 0600 (created so if new). */
export function protectSqliteFiles(path: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  chmodSync(dir, DIR_MODE);
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, FILE_MODE);
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the given address';
  }
}
