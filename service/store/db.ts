import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { withStatementCache } from './statement-cache.ts';
import { openGuard, passiveGuard, type RequestGuard } from './guard/index.ts';
import { emptyCaches, type StoreCaches } from './caches.ts';
import { preparedRunner, type StatementRunner } from './pg-prepared.ts';
import { QueryTimings, type PoolState } from './timings.ts';
import { listenForChanges, type ChangeListener } from './changes/listen.ts';
import { ChangeAnnouncer } from './changes/announce.ts';

export type { DialectName } from './dialect.ts';
import type { DialectName } from './dialect.ts';

export type StoreLocation = { sqlitePath: string } | { databaseUrl: string };

export interface OpenDbOptions {
  /**
   * Whether this process answers signed requests (default true): the service does, an operator
   * command does not, and opens a guard that writes nothing (guard/passive.ts), so the guard of a
   * service running on the same SQLite file stays that service's.
   */
  admitsRequests?: boolean;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Nonces and quota counters: the hot path's writes (store/guard). */
  guard: RequestGuard;
  /** What this process keeps of the database between requests (caches.ts). */
  caches: StoreCaches;
  /**
   * PostgreSQL: named prepared statements on the pool, for queries meant for `kysely` itself (a
   * copy of the Db with a transaction's handle must not use them: compare `kysely` first).
   */
  prepared?: { kysely: Kysely<Database>; run: StatementRunner };
  /** How long statements take, for whoever listens (timings.ts). */
  timings: QueryTimings;
  /** The connection pools' state now: none on SQLite. */
  pools(): PoolState[];
  /** PostgreSQL: hears every change row any node records (changes/listen.ts); absent on SQLite. */
  listenForChanges?: (onWake: () => void) => Promise<ChangeListener>;
  /** PostgreSQL: wakes every node's listener once a change committed (changes/announce.ts); absent on SQLite. */
  announceChange?: () => void;
  close(): Promise<void>;
}

/** Opens the database named by `location` and brings its schema up to date. */
export async function openDb(location: StoreLocation, options: OpenDbOptions = {}): Promise<Db> {
  const timings = new QueryTimings();
  const { kysely, dialect, run, guardPool, pools } =
    'databaseUrl' in location
      ? await openPostgres(location.databaseUrl, timings)
      : openSqlite(location.sqlitePath, timings);
  await migrate(kysely, dialect);
  const guard =
    options.admitsRequests === false ? passiveGuard(kysely) : await openGuard(kysely, dialect, guardPool?.run);
  const announcer = run ? new ChangeAnnouncer(run) : undefined;
  return {
    kysely,
    dialect,
    guard,
    caches: emptyCaches(),
    ...(run ? { prepared: { kysely, run } } : {}),
    timings,
    pools: pools ?? (() => []),
    ...('databaseUrl' in location
      ? { listenForChanges: (onWake: () => void) => listenForChanges(location.databaseUrl, onWake) }
      : {}),
    ...(announcer ? { announceChange: () => announcer.announce() } : {}),
    async close() {
      await guard.close();
      await announcer?.settled();
      await guardPool?.end();
      await kysely.destroy();
    },
  };
}

type Opened = Pick<Db, 'kysely' | 'dialect'> & {
  run?: StatementRunner;
  /** PostgreSQL: the request guard's own connections (its batched claims never wait behind a slow read). */
  guardPool?: { run: StatementRunner; end(): Promise<void> };
  pools?: () => PoolState[];
};

/** Kysely's query log as timings: one call per statement with its duration (errors too). */
function logTimings(timings: QueryTimings) {
  return (event: { queryDurationMillis: number }) => {
    if (timings.listened) timings.record(event.queryDurationMillis / 1000);
  };
}

function openSqlite(path: string, timings: QueryTimings): Opened {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    log: logTimings(timings),
  });
  return { kysely, dialect: 'sqlite' };
}

/** Connections of the request guard's pool: as many as it sends batches at once (store/guard/pg-batcher.ts). */
const GUARD_CONNECTIONS = 2;

/**
 * The guard's connections commit without waiting for the WAL flush: its rows are replay protection
 * and rate counts for seconds, not anyone's data, and a flush per batch was most of a signed GET's
 * wait. Other sessions see a claim at once; only a crash of the database server (or the machine)
 * can forget the last ≈ 0.6 s of claims (docs/RELIABILITY.md). Every other write stays durable.
 */
const GUARD_SESSION = '-c synchronous_commit=off';

/** The driver is imported here, not above: a SQLite start does not load it (≈80 ms). */
async function openPostgres(connectionString: string, timings: QueryTimings): Promise<Opened> {
  const { default: pg } = await import('pg');
  // PostgreSQL bigint (int8) columns hold Unix seconds and ids: well inside Number's safe range.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString, max: 10 });
  const guardPool = new pg.Pool({ connectionString, max: GUARD_CONNECTIONS, options: GUARD_SESSION });
  // A connection the server ended (a stop, a restart, an operator's kill): idle in the pool, the pool
  // drops it; held for a query or a transaction, that query fails and the pool drops it on release.
  // The driver also emits the end as an error event on the connection: unheard, it ends the process.
  for (const p of [pool, guardPool]) {
    p.on('error', () => undefined);
    p.on('connect', (client) => client.on('error', () => undefined));
  }
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logTimings(timings) });
  const stateOf = (name: string, p: InstanceType<typeof pg.Pool>): PoolState => ({
    pool: name,
    total: p.totalCount,
    idle: p.idleCount,
    waiting: p.waitingCount,
  });
  return {
    kysely,
    dialect: 'postgres',
    run: preparedRunner(pool, timings),
    guardPool: { run: preparedRunner(guardPool, timings), end: () => guardPool.end() },
    pools: () => [stateOf('main', pool), stateOf('guard', guardPool)],
  };
}

async function migrate(kysely: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (await schemaIsCurrent(kysely)) return;
  const all: Record<string, Migration> = {};
  for (const [name, up] of Object.entries(migrations)) all[name] = { up: (k) => up(k, dialect) };
  const migrator = new Migrator({ db: kysely, provider: { getMigrations: () => Promise.resolve(all) } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('The migration failed', { cause: error });
}

/**
 * Whether the store has run exactly the migrations this service has: a restart's usual case, told
 * by one read of Kysely's migration table instead of the Migrator's checks (which introspect every
 * table, the largest part of opening the store). Anything else (a new store, a migration to run,
 * one this service does not know) is the Migrator's to run or refuse.
 */
async function schemaIsCurrent(kysely: Kysely<Database>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(kysely);
    const known = Object.keys(migrations);
    return rows.length === known.length && rows.every((r) => known.includes(r.name));
  } catch {
    return false; // no migration table yet
  }
}
