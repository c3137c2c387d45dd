import { describe, expect, it } from 'vitest';
import { renumber, shiftedRun, type QueueEntry } from '../../service/store/queues.ts';

const entry = (title_id: number, position: number | null): QueueEntry => ({ title_id, position, format: 'instant', added: 1, updated: 1 });
const queue = (n: number) => Array.from({ length: n }, (_, i) => entry(100 + i, i + 1));

/** What changeQueue's write compares: the entries before, by id, and those whose fields changed. */
function diff(before: QueueEntry[], after: QueueEntry[]) {
  const old = new Map(before.map((e) => [e.title_id, e]));
  const updated = after.filter((e) => {
    const o = old.get(e.title_id)!;
    return o && (o.position !== e.position || o.updated !== e.updated);
  });
  return { old, updated };
}

describe('shiftedRun: the entries a move renumbers, written as one UPDATE', () => {
  it('a move up shifts the entries it jumps over down by one; the moved entry is left to its own update', () => {
    const before = queue(10);
    const moved = { ...before[7]!, updated: 2 };
    const after = renumber([...before.slice(0, 2), moved, ...before.slice(2, 7), ...before.slice(8)]);
    const { old, updated } = diff(before, after);
    const run = shiftedRun(before, old, updated)!;
    expect(run).toMatchObject({ from: 3, to: 7, delta: 1 });
    expect([...run.ids].sort()).toEqual([102, 103, 104, 105, 106]);
  });

  it('a removal shifts the tail up by one', () => {
    const before = queue(6);
    const after = renumber(before.filter((e) => e.title_id !== 101));
    const { old, updated } = diff(before, after);
    expect(shiftedRun(before, old, updated)).toMatchObject({ from: 3, to: 6, delta: -1 });
  });

  it('is undefined when no two consecutive entries move alike, or when the range holds others', () => {
    const before = queue(4);
    const swapped = renumber([before[1]!, before[0]!, before[2]!, before[3]!]);
    const d = diff(before, swapped);
    expect(shiftedRun(before, d.old, d.updated)).toBeUndefined();
    const gap = [...before, entry(200, 3)]; // two entries at position 3: a range UPDATE would move both
    const after = renumber([before[3]!, ...before.slice(0, 3)]);
    const g = diff(gap, after);
    expect(shiftedRun(gap, g.old, g.updated)).toBeUndefined();
  });
});
