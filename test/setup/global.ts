import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureDemoData } from '../../service/bootstrap.ts';
import { demoCatalog } from '../../service/data/demo/catalog.ts';
import { loadCatalog } from '../../service/store/catalog/load.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { setMeta } from '../../service/store/meta.ts';
import { unpackChromium } from '../helpers/browser.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo catalog, consumer and subscriber: a store as the service's first start leaves it. */
    sqliteTemplate: string;
    /** The demo catalog alone (like the PostgreSQL template): a store no service has started on. */
    sqliteCatalogTemplate: string;
    postgresUrl: string;
    catalogNow: number;
  }
}

export const TEMPLATE_DB = 'marquee_template';

/** One batch of the demo catalog's rows (named from the generator, to import nothing more). */
type CatalogRows = ReturnType<typeof demoCatalog> extends Iterable<infer Batch> ? Batch : never;

/**
 * Once per test run: a demo catalog loaded into a SQLite file and into a PostgreSQL template
 * database. Each test file then copies one (a file copy, or CREATE DATABASE … TEMPLATE) in
 * milliseconds instead of loading the catalog again. The catalog is generated once, for both.
 * A second SQLite file is the first as a service's first start leaves it (demo consumer and
 * subscriber made): a service process started on a copy skips that work, ≈ 0.2 s of CPU each.
 * Chromium is unpacked here too, once, before the end-to-end files launch it side by side.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const now = Math.floor(Date.now() / 1000);
  const dir = mkdtempSync(join(tmpdir(), 'marquee-test-'));
  const catalogPath = join(dir, 'catalog.sqlite');
  const startedPath = join(dir, 'template.sqlite');
  const catalog: CatalogRows[] = [];
  // A fixture run (exit-code.test.ts) starts and stops the same servers but reads no catalog.
  const templates = !process.env.MARQUEE_TEST_FIXTURE;
  const [postgres] = await Promise.all([
    startPostgres(),
    templates && buildSqliteTemplates(catalogPath, startedPath, keeping(demoCatalog(now), catalog), now),
    unpackChromium(), // before any e2e file launches one
  ]);
  if (templates) await buildPostgresTemplate(postgres, catalog);
  project.provide('sqliteTemplate', startedPath);
  project.provide('sqliteCatalogTemplate', catalogPath);
  project.provide('postgresUrl', postgres.url);
  project.provide('catalogNow', now);
  return async () => {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The batches as they are generated, each also kept in `into` (for the second database). */
function* keeping(batches: Iterable<CatalogRows>, into: CatalogRows[]): Generator<CatalogRows> {
  for (const batch of batches) {
    into.push(batch);
    yield batch;
  }
}

/** The catalog alone at `catalogPath`; at `startedPath`, a copy a first start has run on at `now`. */
async function buildSqliteTemplates(
  catalogPath: string,
  startedPath: string,
  catalog: Iterable<CatalogRows>,
  now: number,
): Promise<void> {
  const db = await openDb({ sqlitePath: catalogPath });
  await loadDemo(db, catalog);
  await closeWhole(db);
  copyFileSync(catalogPath, startedPath);
  const started = await openDb({ sqlitePath: startedPath });
  await ensureDemoData(started, now);
  await closeWhole(started);
}

/** Fold the WAL into the main file so a plain file copy is the whole database. */
async function closeWhole(db: Db): Promise<void> {
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  await db.close();
}

async function buildPostgresTemplate(server: PostgresServer, catalog: Iterable<CatalogRows>): Promise<void> {
  const admin = new pg.Client({ connectionString: `${server.url}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const db = await openDb({ databaseUrl: `${server.url}/${TEMPLATE_DB}` });
  await loadDemo(db, catalog);
  await db.close();
}

/** The demo catalog, recorded as loaded so a service process started on a copy keeps it. */
async function loadDemo(db: Db, catalog: Iterable<CatalogRows>): Promise<void> {
  await loadCatalog(db, catalog);
  await setMeta(db, 'catalog', 'demo');
}
