import { describe, expect, it } from 'vitest';
import { renumber } from '../../shared/pure/queue-order.ts';
import { diffQueues } from '../../service/store/queue/diff.ts';
import { assignKeys, KEY_GAP, MAX_KEY } from '../../service/store/queue/keys.ts';
import { planChange } from '../../service/store/queue/plan.ts';
import type { StoredQueue } from '../../service/store/queue/types.ts';
import type { QueueEntry } from '../../service/model/queue.ts';
import { storedQueue } from '../../service/store/queue/queues.ts';

const entry = (title_id: number, position: number | null, updated = 1): QueueEntry => ({
  title_id,
  position,
  format: 'instant',
  added: 1,
  updated,
});

/** A stored queue of n available entries (ids 100…) with keys `step` apart, and `saved` saved ones after them. */
function queue(n: number, step = KEY_GAP, saved = 0): StoredQueue {
  const rows = [
    ...Array.from({ length: n }, (_, i) => ({ ...entry(100 + i, null), position: (i + 1) * step })),
    ...Array.from({ length: saved }, (_, i) => ({ ...entry(900 + i, null), added: 2 + i })),
  ];
  return storedQueue(rows);
}

/** What changeQueue does with a change's new list: number it, key it, diff it against `before`. */
function change(before: StoredQueue, list: QueueEntry[]) {
  return planChange(before, renumber(list));
}

/** The same without the move shortcut: keys and diff in general. */
function general(before: StoredQueue, list: QueueEntry[]) {
  const entries = renumber(list);
  const after = { entries, keys: assignKeys(before, entries) };
  return { after, diff: diffQueues(before, after) };
}

/** Moves the entry at (1-based) `from` to `to`, as a queue POST with a position does. */
function move(before: StoredQueue, from: number, to: number, now = 2): QueueEntry[] {
  const list = [...before.entries];
  const [moved] = list.splice(from - 1, 1);
  list.splice(to - 1, 0, { ...moved!, updated: now });
  return list;
}

/** The order readers see: entries sorted by key, as the store reads them back. */
function reread(after: StoredQueue): number[] {
  const rows = after.entries.map((e, i) => ({ ...e, position: after.keys[i]! }));
  return storedQueue(rows).entries.map((e) => e.title_id);
}

describe('sparse order keys: a move rewrites one row, readers still see 1..n', () => {
  it('a move down or up writes only the moved row, with a key between its new neighbours', () => {
    const before = queue(10);
    for (const [from, to] of [
      [2, 8],
      [9, 1],
      [1, 10],
      [10, 1],
      [5, 6],
    ] as const) {
      const { after, diff } = change(before, move(before, from, to));
      expect(diff.updated.map((r) => r.entry.title_id)).toEqual([before.entries[from - 1]!.title_id]);
      expect(diff.inserted).toEqual([]);
      expect(diff.removed).toEqual([]);
      expect(after.entries.map((e) => e.position)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(reread(after)).toEqual(after.entries.map((e) => e.title_id));
    }
  });

  it('a dense queue (keys 1..n, as older versions stored it) is respaced on its first move, then moves write one row', () => {
    const dense = queue(6, 1);
    const first = change(dense, move(dense, 5, 2));
    expect(first.after.keys).toEqual([1, 2, 3, 4, 5, 6].map((i) => i * KEY_GAP));
    expect(reread(first.after)).toEqual([100, 104, 101, 102, 103, 105]);
    const second = change(first.after, move(first.after, 1, 6));
    expect(second.diff.updated.map((r) => r.entry.title_id)).toEqual([100]);
  });

  it('repeated moves into one gap respace the queue when the gap is used up, and the order stays right', () => {
    let current = queue(4);
    const expected = current.entries.map((e) => e.title_id);
    for (let i = 0; i < 40; i++) {
      const list = move(current, 4, 2, 10 + i); // the last entry, always between the first and the second
      expected.splice(1, 0, expected.pop()!);
      current = change(current, list).after;
      expect(reread(current)).toEqual(expected);
      expect(current.keys.every((k) => k !== null && k > 0 && k <= MAX_KEY)).toBe(true);
    }
  });

  it('adds at the end take the next key; a removal writes nothing but the delete; saved entries keep a null key', () => {
    const before = queue(3, KEY_GAP, 2);
    const added = change(before, [...before.entries.slice(0, 3), entry(7, 0, 5), ...before.entries.slice(3)]);
    expect(added.diff.inserted).toEqual([{ entry: { ...entry(7, 4, 5) }, key: 4 * KEY_GAP }]);
    expect(added.diff.updated).toEqual([]);
    expect(added.after.keys.slice(4)).toEqual([null, null]);
    const removed = change(
      added.after,
      added.after.entries.filter((e) => e.title_id !== 101),
    );
    expect(removed.diff).toEqual({ removed: [101], updated: [], inserted: [] });
    expect(removed.after.entries.map((e) => e.position)).toEqual([1, 2, 3, null, null]);
  });

  it('random moves, adds and removals: both ways to key a change keep the order readers see, and a move writes one row', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    let current = queue(30, 3); // keys 3 apart: some moves find no room and respace
    let next = 1000;
    for (let i = 0; i < 300; i++) {
      const size = current.entries.length;
      const op = random(10);
      let list: QueueEntry[];
      if (op === 0) list = [...current.entries, entry(next++, 0, i)];
      else if (op === 1 && size > 2) list = current.entries.filter((_, j) => j !== random(size));
      else list = move(current, 1 + random(size), 1 + random(size), 10 + i);
      const fast = change(current, list);
      const slow = general(current, list);
      expect(reread(fast.after)).toEqual(fast.after.entries.map((e) => e.title_id));
      expect(reread(slow.after)).toEqual(fast.after.entries.map((e) => e.title_id));
      if (op > 1 && fast.diff.updated.length === 1) expect(fast.diff.updated[0]!.entry.updated).toBe(10 + i);
      current = fast.after;
    }
  });

  it('a reversed queue keeps one key and rekeys the rest between them', () => {
    const before = queue(5);
    const { after } = change(before, [...before.entries].reverse());
    expect(reread(after)).toEqual([104, 103, 102, 101, 100]);
  });
});
