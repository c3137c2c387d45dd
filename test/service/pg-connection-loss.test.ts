import { sql } from 'kysely';
import { expect, inject, it } from 'vitest';
import { adminStatement } from '../helpers/postgres-server.ts';
import { openTestDb } from '../helpers/service.ts';
import type { Db } from '../../service/store/db.ts';

/**
 * PostgreSQL ends a node's connections when it stops, restarts or an operator kills a session. A
 * connection the node holds at that moment (a query under way, a transaction between statements)
 * must fail what it was doing and nothing more: the node lives on and the next query gets a new
 * connection. Unhandled, the driver's error event on such a connection ended the whole process.
 */
async function endSessionsOf(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await adminStatement(
    inject('postgresUrl'),
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
  );
}

/**
 * A query, until one succeeds: the pool's other connections were ended too, and one handed out
 * before its end arrives fails its query as the first did. What matters is that the node is still
 * there and gets new connections without a restart.
 */
async function answersAgain(db: Db): Promise<void> {
  const one = () =>
    sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely).then(
      ({ rows }) => rows[0]?.one,
      (error: unknown) => String(error),
    );
  await expect.poll(one, { timeout: 10_000, interval: 100 }).toBe(1);
}

/** Sessions of this database running the test's `pg_sleep`. */
async function sleepers(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%' AND state = 'active'`.execute(db.kysely);
  return rows[0]!.n;
}

it('a query under way when the server ends its connection fails; the node gets new connections', async () => {
  const { db, databaseUrl, drop } = await openTestDb('postgres');
  try {
    const sleeping = sql`SELECT pg_sleep(30)`.execute(db.kysely).then(
      () => 'finished',
      (error: unknown) => String(error),
    );
    await expect.poll(() => sleepers(db)).toBe(1);
    await endSessionsOf(databaseUrl!);
    expect(await sleeping).toMatch(/terminat/i);
    await answersAgain(db);
  } finally {
    await db.close();
    await drop();
  }
});

it('a transaction between statements when the server ends its connection fails; the node gets new connections', async () => {
  const { db, databaseUrl, drop } = await openTestDb('postgres');
  try {
    const outcome = await db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        await endSessionsOf(databaseUrl!);
        // The end reaches this connection's socket while it waits here, holding the transaction.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`SELECT 2`.execute(trx);
        return 'committed';
      })
      .catch((error: unknown) => String(error));
    expect(outcome).not.toBe('committed');
    await answersAgain(db);
  } finally {
    await db.close();
    await drop();
  }
});
