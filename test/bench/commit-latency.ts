/**
 * `npx tsx test/bench/commit-latency.ts`: how long one committed write waits on an embedded
 * PostgreSQL with each profile of test/helpers/postgres-server.ts (200 one-row commits, one after
 * another, on one connection): the floor a durable server puts under every claim and move. Then,
 * durable only, how many commits 20 connections make together, each updating its own row, with and
 * without a trigger that NOTIFYs: a transaction that NOTIFYs holds a cluster-wide lock through its
 * commit's WAL flush, so such commits cannot share a flush (why queue writes announce after commit).
 */
import pg from 'pg';
import { startPostgres, type PostgresProfile } from '../helpers/postgres-server.ts';

const WRITERS = 20;
const WINDOW_MS = 3_000;

async function commitLatencies(profile: PostgresProfile, commits: number): Promise<number[]> {
  const server = await startPostgres(profile);
  const client = new pg.Client({ connectionString: `${server.url}/postgres` });
  try {
    await client.connect();
    await client.query('CREATE TABLE claims (id integer PRIMARY KEY)');
    const took: number[] = [];
    for (let i = 0; i < commits; i++) {
      const started = performance.now();
      await client.query('INSERT INTO claims VALUES ($1)', [i]);
      took.push(performance.now() - started);
    }
    return took.sort((a, b) => a - b);
  } finally {
    await client.end();
    await server.stop();
  }
}

/** Commits a second by WRITERS connections at once, on `plain` (no trigger) and `notifying` rows, alternated. */
async function concurrentCommits(): Promise<Record<'plain' | 'notifying', number[]>> {
  const server = await startPostgres('durable');
  const url = `${server.url}/postgres`;
  const clients = Array.from({ length: WRITERS }, () => new pg.Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    const setup = clients[0]!;
    await setup.query(
      "CREATE FUNCTION wake() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('w', ''); RETURN NULL; END $$",
    );
    for (const table of ['plain', 'notifying']) {
      await setup.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, version integer)`);
      await setup.query(`INSERT INTO ${table} SELECT g, 0 FROM generate_series(1, ${WRITERS}) g`);
    }
    await setup.query('CREATE TRIGGER wake AFTER UPDATE ON notifying FOR EACH ROW EXECUTE FUNCTION wake()');
    const rates = { plain: [] as number[], notifying: [] as number[] };
    for (let round = 0; round < 3; round++)
      for (const table of ['plain', 'notifying'] as const) rates[table].push(await commitsPerSecond(clients, table));
    return rates;
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await server.stop();
  }
}

async function commitsPerSecond(clients: pg.Client[], table: string): Promise<number> {
  let commits = 0;
  const end = Date.now() + WINDOW_MS;
  await Promise.all(
    clients.map(async (client, i) => {
      while (Date.now() < end) {
        await client.query(`UPDATE ${table} SET version = version + 1 WHERE id = $1`, [i + 1]);
        commits++;
      }
    }),
  );
  return Math.round((commits / WINDOW_MS) * 1000);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

for (const profile of ['durable', 'fast'] as const) {
  const took = await commitLatencies(profile, 200);
  console.log(`${profile}: one-row commit p50 ${at(took, 0.5).toFixed(2)} ms, p99 ${at(took, 0.99).toFixed(2)} ms`);
}
const rates = await concurrentCommits();
console.log(`durable, ${WRITERS} connections at once: ${rates.plain.join(' / ')} commits/s without NOTIFY`);
console.log(
  `durable, ${WRITERS} connections at once: ${rates.notifying.join(' / ')} commits/s with a trigger's NOTIFY`,
);
