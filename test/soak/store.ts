import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { StoreLocation } from '../../service/store/db.ts';
import { adminStatement } from '../helpers/postgres-server.ts';

/** The store a soak runs on, what it counts, and how it goes away. */
export interface SoakStore {
  dialect: 'sqlite' | 'postgres';
  location: StoreLocation;
  /** Rows of every table the hot path writes, and the store's size on disk in MB. */
  footprint(): Promise<{ rows: Record<string, number>; dataMb: number }>;
  remove(): Promise<void>;
}

/** Tables a signed request (or a queue write, or the guard's upkeep) writes, by store. */
const HOT_TABLES = {
  sqlite: ['quota_counters', 'guard_future_seconds', 'guard_nonce_buckets', 'meta', 'queue_items'],
  postgres: ['guard_nonces', 'guard_nonce_slots', 'quota_seconds', 'quota_counters', 'queue_items'],
} as const;

/** A fresh SQLite file in a temp folder (counted through a read-only connection of its own). */
export function sqliteSoakStore(): SoakStore {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-soak-'));
  const path = join(dir, 'marquee.sqlite');
  let reader: SQLite.Database | undefined;
  return {
    dialect: 'sqlite',
    location: { sqlitePath: path },
    footprint() {
      reader ??= new SQLite(path, { readonly: true, fileMustExist: true });
      const rows: Record<string, number> = {};
      for (const table of HOT_TABLES.sqlite)
        rows[table] = (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const size = (file: string) => {
        try {
          return statSync(file).size;
        } catch {
          return 0;
        }
      };
      return Promise.resolve({ rows, dataMb: (size(path) + size(`${path}-wal`)) / 2 ** 20 });
    },
    remove() {
      reader?.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

let databases = 0;

/** A fresh database on a running PostgreSQL server (`serverUrl` without a database name). */
export async function postgresSoakStore(serverUrl: string): Promise<SoakStore> {
  const name = `marquee_soak_${process.pid}_${++databases}`;
  await adminStatement(serverUrl, `CREATE DATABASE ${name}`);
  const databaseUrl = `${serverUrl}/${name}`;
  let client: pg.Client | undefined;
  return {
    dialect: 'postgres',
    location: { databaseUrl },
    async footprint() {
      if (!client) {
        client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
      }
      const rows: Record<string, number> = {};
      for (const table of HOT_TABLES.postgres)
        rows[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      const size = Number((await client.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
      return { rows, dataMb: size / 2 ** 20 };
    },
    async remove() {
      await client?.end();
      await adminStatement(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
