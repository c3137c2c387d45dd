import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoData } from '../../service/bootstrap.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { openTestDb } from '../helpers/service.ts';

/**
 * Two nodes starting together on one PostgreSQL database (issue 10, defect 5): both run the
 * first-start checks at once. Without a lock both create the demo consumer and subscriber and one
 * dies on a duplicate key; with it they take turns and agree.
 */
describe('first start of two nodes on one PostgreSQL database', () => {
  let nodes: Db[];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await openTestDb('postgres');
    drop = fresh.drop;
    nodes = [
      fresh.db,
      await openDb({ databaseUrl: fresh.databaseUrl! }),
      await openDb({ databaseUrl: fresh.databaseUrl! }),
    ];
  });
  afterAll(async () => {
    for (const db of nodes) await db.close();
    await drop();
  });

  it('every node starts, and all see one demo consumer and one demo subscriber', async () => {
    const now = Math.floor(Date.now() / 1000);
    const results = await Promise.all(nodes.map((db) => ensureDemoData(db, now)));
    expect(new Set(results.map((r) => r.consumer.key)).size).toBe(1);
    expect(new Set(results.map((r) => r.subscriber.password)).size).toBe(1);
    const demos = await nodes[0]!.kysely.selectFrom('users').select('id').where('login', '=', 'demo').execute();
    expect(demos).toHaveLength(1);
  });
});
