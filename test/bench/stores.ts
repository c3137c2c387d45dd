import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreLocation } from '../../service/store/db.ts';
import { adminStatement } from '../helpers/postgres-server.ts';

/** The two stores the service runs on. */
export type BenchDialect = 'sqlite' | 'postgres';

/** Where a bench catalog lives, and how to remove it once its database is closed. */
export interface BenchStore {
  location: StoreLocation;
  remove(): Promise<void>;
  /** A kept store already holding its catalog (`--catalogs`): nothing to load. */
  loaded?: boolean;
  /** Called once the catalog is loaded (a kept store marks itself complete). */
  markLoaded?(): void;
}

/**
 * A SQLite file kept in `dir` for a catalog of `synthetic` titles (`--catalogs DIR`): reused by
 * later runs once a load into it completed, so a 1M-title run loads its catalog once. A file
 * whose load did not complete is started afresh.
 */
export function keptSqliteStore(dir: string, synthetic: number): BenchStore {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `catalog-${synthetic}.sqlite`);
  const done = `${path}.loaded`;
  const loaded = existsSync(path) && existsSync(done);
  if (!loaded) for (const f of [path, `${path}-wal`, `${path}-shm`, done]) rmSync(f, { force: true });
  return {
    location: { sqlitePath: path },
    remove: async () => {},
    loaded,
    markLoaded: () => writeFileSync(done, `${new Date().toISOString()}\n`),
  };
}

/** A fresh SQLite file in a temp dir. */
export function sqliteStore(): BenchStore {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-'));
  return {
    location: { sqlitePath: join(dir, 'marquee.sqlite') },
    remove: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

let databases = 0;

/** A fresh database on a running PostgreSQL server (`serverUrl` without a database name). */
export async function postgresStore(serverUrl: string): Promise<BenchStore> {
  const name = `marquee_bench_${process.pid}_${++databases}`;
  await adminStatement(serverUrl, `CREATE DATABASE ${name}`);
  return {
    location: { databaseUrl: `${serverUrl}/${name}` },
    remove: () => adminStatement(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
