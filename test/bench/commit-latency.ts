/**
 * `npx tsx test/bench/commit-latency.ts`: how long one committed write waits on an embedded
 * PostgreSQL with each profile of test/helpers/postgres-server.ts (200 one-row commits, one after
 * another, on one connection): the floor a durable server puts under every claim and move.
 */
import pg from 'pg';
import { startPostgres, type PostgresProfile } from '../helpers/postgres-server.ts';

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

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

for (const profile of ['durable', 'fast'] as const) {
  const took = await commitLatencies(profile, 200);
  console.log(`${profile}: one-row commit p50 ${at(took, 0.5).toFixed(2)} ms, p99 ${at(took, 0.99).toFixed(2)} ms`);
}
