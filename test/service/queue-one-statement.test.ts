import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCaches } from '../../service/store/caches.ts';
import type { Db } from '../../service/store/db.ts';
import type { StatementRunner } from '../../service/store/pg-prepared.ts';
import type { QueueEntry } from '../../service/model/queue.ts';
import { changeQueue, readQueue } from '../../service/store/queue/queues.ts';
import { openTestDb } from '../helpers/service.ts';

const entry = (title_id: number): QueueEntry => ({ title_id, position: 0, format: 'instant', added: 1, updated: 1 });

/** Moves `id` to (1-based) `to`. */
function moved(entries: readonly QueueEntry[], id: number, to: number): QueueEntry[] {
  const list = entries.filter((e) => e.title_id !== id);
  list.splice(to - 1, 0, { ...entries.find((e) => e.title_id === id)!, updated: 2 });
  return list;
}

/**
 * Issue 19 (S3 on PostgreSQL): a change to a queue this process keeps is one prepared statement
 * (bump and write together, no BEGIN/COMMIT); when another node changed the queue first, nothing of
 * it is written and the change runs again in a transaction on what the store holds.
 */
describe('queue changes on PostgreSQL in one statement', () => {
  let db: Db;
  let drop: () => Promise<void>;
  /** The same database seen through counting handles (a node of its own: its own kept queues). */
  let counted: Db;
  const prepared: string[] = [];
  const built: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('postgres'));
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        built.push(args.node.kind);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const kysely = db.kysely.withPlugin(counting);
    const run: StatementRunner = (text, values) => {
      prepared.push(text);
      return db.prepared!.run(text, values);
    };
    // A node of its own: its own connection handle and its own kept queues (caches), sharing only the database.
    counted = { ...db, kysely, prepared: { kysely, run }, caches: emptyCaches() };
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("moves a kept queue in one statement, and falls back to a transaction after another node's change", async () => {
    const userId = 'one-statement';
    const ids = Array.from({ length: 20 }, (_, i) => 7000 + i);
    const created = await changeQueue(counted, userId, 'instant', undefined, () => ({
      entries: ids.map(entry),
      result: null,
    }));
    expect(created.version).toBe(1);

    prepared.length = 0;
    built.length = 0;
    const move = await changeQueue(counted, userId, 'instant', 1, (entries) => ({
      entries: moved(entries, 7019, 1),
      result: null,
    }));
    expect(move.version).toBe(2);
    expect(prepared).toHaveLength(1);
    expect(built).toEqual([]);
    expect((await readQueue(db, userId, 'instant')).entries.map((e) => e.title_id)).toEqual([
      7019,
      ...ids.slice(0, 19),
    ]);

    // Another node moves a title: the version in the store is past the one kept by `counted`.
    const other = await changeQueue(db, userId, 'instant', undefined, (entries) => ({
      entries: moved(entries, 7005, 1),
      result: null,
    }));
    expect(other.version).toBe(3);

    prepared.length = 0;
    built.length = 0;
    const after = await changeQueue(counted, userId, 'instant', undefined, (entries) => ({
      entries: moved(entries, 7010, 1),
      result: null,
    }));
    expect(after.version).toBe(4);
    expect(prepared).toHaveLength(1); // the attempt, which wrote nothing
    expect(built.length).toBeGreaterThan(0); // then the transaction
    const read = await readQueue(db, userId, 'instant');
    expect(read.version).toBe(4);
    expect(read.entries.map((e) => e.title_id)).toEqual([
      7010,
      7005,
      7019,
      ...ids.slice(0, 19).filter((id) => id !== 7005 && id !== 7010),
    ]);
    expect(read.entries.map((e) => e.position)).toEqual(read.entries.map((_, i) => i + 1));

    // An If-Match naming the version the store has moved past: stale, whatever this process kept.
    await expect(
      changeQueue(counted, userId, 'instant', 3, (entries) => ({ entries: moved(entries, 7001, 1), result: null })),
    ).rejects.toThrow('stale');
  });
});
