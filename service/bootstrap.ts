import { sql } from 'kysely';
import { createConsumer, findConsumer } from './store/oauth/consumers.ts';
import type { Consumer } from './model/consumer.ts';
import type { Db } from './store/db.ts';
import { getMeta, setMeta } from './store/meta.ts';
import { ensureDemoSubscriber, type DemoSubscriber } from './data/demo/subscriber-account.ts';

/**
 * First start: load the demo catalog, register the demo consumer and the demo subscriber. Later starts find both
 * recorded in `meta` and do nothing, so a restart costs only opening the database. A catalog
 * without its `meta` mark is a first load cut short: it is cleared and loaded again. (`seed
 * --synthetic` on a fresh store marks its catalog too, so the service serves that one instead.)
 */
export async function ensureDemoData(db: Db, now: number): Promise<{ consumer: Consumer; subscriber: DemoSubscriber }> {
  return withBootstrapLock(db, async () => {
    const consumer = await ensureCatalogAndConsumer(db, now);
    // After the catalog: the demo subscriber's history is drawn from it.
    return { consumer, subscriber: await ensureDemoSubscriber(db, now) };
  });
}

/** Any fixed number: the PostgreSQL advisory lock every node takes around its first-start checks. */
const BOOTSTRAP_LOCK = 7_140_001;

/**
 * Nodes starting together on one fresh PostgreSQL database take turns: the first loads, the
 * others then find its `meta` marks and do nothing. The lock is a session lock held on one pooled
 * connection while the work runs on others; it ends with that session if the process dies.
 * (SQLite: one process opens the file to serve, so there is nothing to take turns with.)
 */
async function withBootstrapLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return work();
  return db.kysely.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${BOOTSTRAP_LOCK})`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${BOOTSTRAP_LOCK})`.execute(conn);
    }
  });
}

/** The desktop app is the demo consumer: the sign-in page names it so ("Marquee would like to use…"). */
export const DEMO_CONSUMER_NAME = 'Marquee';

async function ensureCatalogAndConsumer(db: Db, now: number): Promise<Consumer> {
  if ((await getMeta(db, 'catalog')) === undefined) {
    // Imported only here: a restart finds the catalog and does not load the generator.
    const [{ demoCatalog }, { clearCatalog, loadCatalog }] = await Promise.all([
      import('./data/demo/catalog.ts'),
      import('./store/catalog/load.ts'),
    ]);
    await clearCatalog(db);
    await loadCatalog(db, demoCatalog(now));
    await setMeta(db, 'catalog', 'demo');
  }
  const key = await getMeta(db, 'demo_consumer');
  const existing = key ? await findConsumer(db, key) : undefined;
  if (existing) return existing;
  const consumer = await createConsumer(db, { name: DEMO_CONSUMER_NAME });
  await setMeta(db, 'demo_consumer', consumer.key);
  return consumer;
}
