import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { demoCatalog } from '../../service/data/demo/catalog.ts';
import { syntheticCatalog } from '../../service/data/synthetic/catalog.ts';
import { buildServer } from '../../service/server.ts';
import { loadCatalog } from '../../service/store/catalog/load.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { sqliteStore, type BenchStore } from './stores.ts';

export interface BenchDb {
  db: Db;
  consumer: Consumer;
  titles: number;
  loadSeconds: number;
  drop: () => Promise<void>;
}

/** A fresh database (SQLite unless `store` says otherwise): the demo catalog, `synthetic` more titles, one consumer without limits. */
export async function createBenchDb(synthetic: number, store: BenchStore = sqliteStore()): Promise<BenchDb> {
  const db = await openDb(store.location);
  const now = Math.floor(Date.now() / 1000);
  const started = performance.now();
  let titles: number;
  if (store.loaded) titles = await titleCount(db);
  else {
    titles = await loadCatalog(db, demoCatalog(now));
    if (synthetic > 0) titles += await loadCatalog(db, syntheticCatalog(synthetic, now));
    store.markLoaded?.();
  }
  const loadSeconds = (performance.now() - started) / 1000;
  // Budgets no load test reaches: the quota is still charged (by the request guard), never refused.
  const consumer = await createConsumer(db, { name: 'Marquee bench', perSecond: 1_000_000_000, perDay: 1_000_000_000 });
  return {
    db,
    consumer,
    titles,
    loadSeconds,
    async drop() {
      await db.close();
      await store.remove();
    },
  };
}

async function titleCount(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('titles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `count` movie ids spread evenly over the catalog's movies. */
export async function sampleMovieIds(db: Db, count: number): Promise<number[]> {
  const rows = await db.kysely.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id').execute();
  const step = Math.max(1, Math.floor(rows.length / count));
  return rows
    .filter((_, i) => i % step === 0)
    .slice(0, count)
    .map((r) => r.id);
}

/**
 * The service on loopback, port 0. Its public base URL is the default one (ids and links in the
 * bodies then have their usual length); requests are signed against the real Host, as OAuth wants.
 */
export async function startService(db: Db): Promise<{ app: FastifyInstance; port: number }> {
  const app = buildServer({ db, baseUrl: 'http://127.0.0.1:8710' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}
