import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { TEMPLATE_DB } from '../setup/global.ts';
import { adminStatement } from './postgres-server.ts';

export const DATABASES = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASES)[number];

export const TEST_BASE = 'http://marquee.test';

export interface TestService {
  kind: DatabaseKind;
  db: Db;
  app: FastifyInstance;
  consumer: Consumer;
  baseUrl: string;
  /** Moves the service's clock (Unix seconds); tests of time windows set it. */
  clock: { now: number | undefined };
  close(): Promise<void>;
}

let counter = 0;

/**
 * A copy of the run's demo store (test/setup/global.ts: the demo catalog, consumer and subscriber,
 * as a first start leaves them) at `<dataDir>/marquee.sqlite`, the file a service started with
 * `--data-dir <dataDir>` opens; the folder is made if need be. The service then skips the first
 * start's work, for tests that are not about it. Resolves to the copy's path.
 */
export function copyDemoStore(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'marquee.sqlite');
  copyFileSync(inject('sqliteTemplate'), path);
  return path;
}

/** A fresh database holding the demo catalog alone (copied from the run's template): no demo subscriber. */
export async function openTestDb(
  kind: DatabaseKind,
): Promise<{ db: Db; drop: () => Promise<void>; databaseUrl?: string }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-db-'));
    const path = join(dir, 'marquee.sqlite');
    copyFileSync(inject('sqliteCatalogTemplate'), path);
    const db = await openDb({ sqlitePath: path });
    return { db, drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
  }
  const server = inject('postgresUrl');
  const name = `t_${process.pid}_${Date.now()}_${counter++}`;
  // FILE_COPY: the template's files copied as they are. PostgreSQL's default (WAL_LOG) writes every
  // page of the catalog through the WAL: ≈ 1.6 times the server's CPU over 15 service test files.
  await withAdmin(server, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB} STRATEGY FILE_COPY`));
  const databaseUrl = `${server}/${name}`;
  const db = await openDb({ databaseUrl });
  return { db, databaseUrl, drop: () => dropDatabase(server, name) };
}

/** A fresh database for one describe block: opened before its tests, closed and dropped after them. */
export function testDbForBlock(kind: DatabaseKind): { db: Db } {
  const block = {} as { db: Db };
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ db: block.db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await block.db?.close();
    await drop?.();
  });
  return block;
}

/**
 * DROP DATABASE once the connections just closed have gone: pg's pool.end() resolves before its
 * clients have said goodbye, and a forced drop then ends one of them with an error nobody catches.
 * Forced after half a second, for the sessions of a process that was killed.
 */
async function dropDatabase(server: string, name: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await adminStatement(server, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if (!/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await adminStatement(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export async function startTestService(kind: DatabaseKind, baseUrl = TEST_BASE): Promise<TestService> {
  const { db, drop } = await openTestDb(kind);
  // Generous explicit quotas: suites fire many sequential requests a second on this one consumer.
  const consumer = await createConsumer(db, { name: 'Test App', perSecond: 100_000, perDay: 100_000_000 });
  const clock: { now: number | undefined } = { now: undefined };
  const app = buildServer({ db, baseUrl, now: () => clock.now ?? Math.floor(Date.now() / 1000) });
  await app.ready();
  return {
    kind,
    db,
    app,
    consumer,
    baseUrl,
    clock,
    async close() {
      await app.close();
      await db.close();
      await drop();
    },
  };
}

/** CREATE DATABASE from one template may collide with a concurrent one: retry briefly. */
async function withAdmin<T>(server: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: `${server}/postgres` });
    await client.connect();
    try {
      return await run(client);
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    } finally {
      await client.end();
    }
  }
}
