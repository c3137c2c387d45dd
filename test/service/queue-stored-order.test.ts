import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../service/store/db.ts';
import { changeQueue, readQueue, StaleQueueError } from '../../service/store/queue/queues.ts';
import type { QueueEntry } from '../../service/model/queue.ts';
import { DATABASES, openTestDb } from '../helpers/service.ts';

const entry = (title_id: number, updated: number): QueueEntry => ({
  title_id,
  position: 0,
  format: 'instant',
  added: 1,
  updated,
});

/** Moves `id` to (1-based) `to` in the list, as a queue POST with a position does. */
function moved(entries: readonly QueueEntry[], id: number, to: number, now: number): QueueEntry[] {
  const list = entries.filter((e) => e.title_id !== id);
  list.splice(to - 1, 0, { ...entries.find((e) => e.title_id === id)!, updated: now });
  return list;
}

/**
 * The order a queue's rows keep in the store (sparse keys, store/queue/keys.ts), read back as readers see
 * it: positions 1..n in the order of the changes, on both databases.
 */
describe.each(DATABASES)('queue order as stored on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let users = 0;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  /** A queue written straight into the store with positions 1..n, as versions before sparse keys left it. */
  async function denseQueue(size: number): Promise<{ userId: string; ids: number[] }> {
    const userId = `order-${kind}-${users++}`;
    const ids = Array.from({ length: size }, (_, i) => 5000 + i);
    await db.kysely.insertInto('queues').values({ user_id: userId, kind: 'instant', version: 1 }).execute();
    await db.kysely
      .insertInto('queue_items')
      .values(
        ids.map((title_id, i) => ({
          user_id: userId,
          kind: 'instant',
          title_id,
          position: i + 1,
          format: 'instant',
          added: 1,
          updated: 1,
        })),
      )
      .execute();
    return { userId, ids };
  }

  it('a dense queue moves, grows and shrinks as expected; every change bumps the version by one; readers see 1..n', async () => {
    const { userId, ids } = await denseQueue(40);
    const order = [...ids];
    let version = 1;
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 120; i++) {
      const op = random(8);
      const done = await changeQueue(db, userId, 'instant', version, (entries) => {
        if (op === 0) return { entries: [...entries, entry(9000 + i, i)], result: null };
        if (op === 1 && entries.length > 5)
          return { entries: entries.filter((e) => e.title_id !== order[random(order.length)]), result: null };
        return {
          entries: moved(entries, order[random(order.length)]!, 1 + random(order.length), 10 + i),
          result: null,
        };
      });
      expect(done.version).toBe(version + 1);
      version = done.version;
      order.splice(0, order.length, ...done.entries.map((e) => e.title_id));
      const read = await readQueue(db, userId, 'instant');
      expect(read.version).toBe(version);
      expect(read.entries.map((e) => e.title_id)).toEqual(order);
      expect(read.entries.map((e) => e.position)).toEqual(order.map((_, j) => j + 1));
    }
  });

  it('a stale version changes nothing', async () => {
    const { userId, ids } = await denseQueue(5);
    const change = (expected: number) =>
      changeQueue(db, userId, 'instant', expected, (entries) => ({
        entries: moved(entries, ids[4]!, 1, 2),
        result: null,
      }));
    await change(1);
    const before = await readQueue(db, userId, 'instant');
    await expect(change(1)).rejects.toBeInstanceOf(StaleQueueError);
    expect(await readQueue(db, userId, 'instant')).toEqual(before);
  });

  it('a change written by another node (the version moved past what this process keeps) is read from the store, not from memory', async () => {
    const { userId, ids } = await denseQueue(6);
    await changeQueue(db, userId, 'instant', 1, (entries) => ({
      entries: moved(entries, ids[5]!, 1, 2),
      result: null,
    })); // kept at version 2
    // Another node: the first entry (ids[5], key smallest) removed, the version bumped.
    await db.kysely.deleteFrom('queue_items').where('user_id', '=', userId).where('title_id', '=', ids[5]!).execute();
    await db.kysely.updateTable('queues').set({ version: 3 }).where('user_id', '=', userId).execute();
    const done = await changeQueue(db, userId, 'instant', 3, (entries) => ({
      entries: moved(entries, ids[0]!, 5, 3),
      result: null,
    }));
    expect(done.version).toBe(4);
    expect((await readQueue(db, userId, 'instant')).entries.map((e) => e.title_id)).toEqual([
      ids[1],
      ids[2],
      ids[3],
      ids[4],
      ids[0],
    ]);
  });

  it('a queue never written is created by its first change, at version 1', async () => {
    const userId = `order-${kind}-new`;
    const done = await changeQueue(db, userId, 'instant', undefined, () => ({
      entries: [entry(7001, 1), entry(7002, 1)],
      result: null,
    }));
    expect(done.version).toBe(1);
    expect((await readQueue(db, userId, 'instant')).entries.map((e) => [e.title_id, e.position])).toEqual([
      [7001, 1],
      [7002, 2],
    ]);
  });
});
