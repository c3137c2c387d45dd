import { describe, expect, it } from 'vitest';
import { ReadBatcher } from '../../service/store/read-batcher.ts';

interface Row {
  key: string;
  value: number;
}

/** A read that answers a row for every key but `missing`, and records each statement's keys. */
function recordingRead(missing = new Set<string>()) {
  const statements: string[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const read = async (keys: string[]): Promise<Row[]> => {
    statements.push(keys);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inFlight--;
    return keys.filter((k) => !missing.has(k)).map((key) => ({ key, value: Number(key.slice(1)) }));
  };
  return { read, statements, mostInFlight: () => mostInFlight };
}

describe('ReadBatcher', () => {
  it('answers each caller with its own key’s row, reading keys asked together in one statement', async () => {
    const { read, statements } = recordingRead(new Set(['k3']));
    const batcher = new ReadBatcher<Row>(read, (r) => r.key);
    const keys = ['k1', 'k2', 'k3', 'k1'];
    const rows = await Promise.all(keys.map((k) => batcher.get(k)));
    expect(rows).toEqual([{ key: 'k1', value: 1 }, { key: 'k2', value: 2 }, undefined, { key: 'k1', value: 1 }]);
    expect(statements).toEqual([['k1', 'k2', 'k3']]);
  });

  it('splits a crowd into statements of at most 500 keys, at most two out at once', async () => {
    const recording = recordingRead();
    const batcher = new ReadBatcher<Row>(recording.read, (r) => r.key);
    const keys = Array.from({ length: 1_200 }, (_, i) => `k${i}`);
    const rows = await Promise.all(keys.map((k) => batcher.get(k)));
    expect(rows.map((r) => r?.value)).toEqual(keys.map((_, i) => i));
    expect(recording.statements.map((s) => s.length)).toEqual([500, 500, 200]);
    expect(recording.mostInFlight()).toBe(2);
  });

  it('reads a key asked after a statement went out in a later statement, never from the earlier answer', async () => {
    const { read, statements } = recordingRead();
    const batcher = new ReadBatcher<Row>(read, (r) => r.key);
    const first = batcher.get('k1');
    await new Promise((resolve) => setImmediate(resolve)); // the first statement is out
    const second = batcher.get('k1');
    await Promise.all([first, second]);
    expect(statements).toEqual([['k1'], ['k1']]);
  });

  it('rejects every caller of a failed statement, and reads again for the next', async () => {
    let fail = true;
    const batcher = new ReadBatcher<Row>(
      (keys) =>
        fail ? Promise.reject(new Error('connection lost')) : Promise.resolve(keys.map((key) => ({ key, value: 0 }))),
      (r) => r.key,
    );
    const failed = await Promise.allSettled([batcher.get('a'), batcher.get('b')]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batcher.get('a')).toEqual({ key: 'a', value: 0 });
  });
});
