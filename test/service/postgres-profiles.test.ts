import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.ts';

const DURABILITY = ['fsync', 'synchronous_commit', 'full_page_writes'] as const;

/** What the server itself says about how it keeps a commit. */
async function durabilitySettings(serverUrl: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    const settings: Record<string, string> = {};
    for (const name of DURABILITY) settings[name] = (await client.query(`SHOW ${name}`)).rows[0][name] as string;
    return settings;
  } finally {
    await client.end();
  }
}

describe("the test helper's PostgreSQL profiles (BENCHMARKS.md's S8 runs the durable one)", () => {
  let durable: PostgresServer;
  beforeAll(async () => {
    durable = await startPostgres('durable');
  });
  afterAll(() => durable?.stop());

  it('durable: PostgreSQL flushes every commit, as its defaults (and operators) have it', async () => {
    expect(await durabilitySettings(durable.url)).toEqual({
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
    });
  });

  it("fast: the suite's server flushes nothing (it kills services, never the database server)", async () => {
    expect(await durabilitySettings(inject('postgresUrl'))).toEqual({
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    });
  });
});
