import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyOrder,
  availableOrder,
  moveRef,
  moveToEdge,
  rebaseOrder,
  renumber,
  splitQueue,
  withOrder,
  withoutRefs,
} from '../../../shared/pure/queue-order.ts';
import { item, queueOf, refs } from './helpers.ts';

/** Queue orders as lists of refs: edits, the optimistic view, and rebasing onto a queue that changed. */

const sorted = (list: readonly string[]) => [...list].sort();
/** A list of refs and one of them (or none, when empty). */
const listAndPick = refs().chain((list) =>
  fc.tuple(fc.constant(list), list.length ? fc.constantFrom(...list) : fc.constant('none')),
);

describe('moveRef', () => {
  it('puts the title at the position (clamped), keeping everyone else in order', () => {
    fc.assert(
      fc.property(listAndPick, fc.integer({ min: -3, max: 40 }), ([list, ref], position) => {
        const moved = moveRef(list, ref, position);
        expect(sorted(moved)).toEqual(sorted(list));
        expect(moved.filter((r) => r !== ref)).toEqual(list.filter((r) => r !== ref));
        if (list.includes(ref)) expect(moved.indexOf(ref)).toBe(Math.max(0, Math.min(position - 1, list.length - 1)));
      }),
    );
  });

  it('leaves the list as it was for a title not in it', () => {
    expect(moveRef(['a', 'b'], 'z', 1)).toEqual(['a', 'b']);
  });
});

describe('moveToEdge and withoutRefs', () => {
  it('moves the chosen titles to the top or the bottom, each group in its order', () => {
    fc.assert(
      fc.property(
        refs(),
        fc.func(fc.boolean()),
        fc.constantFrom('top' as const, 'bottom' as const),
        (list, choose, edge) => {
          const chosen = new Set(list.filter((r) => choose(r)));
          const picked = list.filter((r) => chosen.has(r));
          const rest = list.filter((r) => !chosen.has(r));
          expect(moveToEdge(list, chosen, edge)).toEqual(edge === 'top' ? [...picked, ...rest] : [...rest, ...picked]);
          expect(withoutRefs(list, chosen)).toEqual(rest);
        },
      ),
    );
  });
});

describe('the available part of a queue', () => {
  it('orders available items by position and keeps saved ones apart', () => {
    const items = [item('c', 3), item('s', null), item('a', 1), item('b', 2)];
    expect(availableOrder(items)).toEqual(['a', 'b', 'c']);
    expect(splitQueue(items).saved.map((i) => i.ref)).toEqual(['s']);
  });

  it('renumbers available items 1..n in list order, keeping saved ones and unchanged items as they are', () => {
    const a = item('a', 1);
    const items = [a, item('b', 5), item('s', null), item('c', 2)];
    const renumbered = renumber(items);
    expect(renumbered.map((i) => [i.ref, i.position])).toEqual([
      ['a', 1],
      ['b', 2],
      ['s', null],
      ['c', 3],
    ]);
    expect(renumbered[0]).toBe(a);
  });

  it('splits and renumbers any entry that carries a position, such as the service’s entries keyed by title id', () => {
    const entry = (title_id: number, position: number | null) => ({ title_id, position, format: 'instant' });
    const first = entry(7, 1);
    const { available, saved } = splitQueue([entry(9, null), entry(8, 4), first]);
    expect(available.map((e) => e.title_id)).toEqual([7, 8]);
    expect(saved.map((e) => e.title_id)).toEqual([9]);
    const renumbered = renumber([...available, ...saved]);
    expect(renumbered).toEqual([first, entry(8, 2), entry(9, null)]);
    expect(renumbered[0]).toBe(first);
  });

  it('shows any order of the queued titles at once, saved titles after, titles not queued left out', () => {
    fc.assert(
      fc.property(refs(), refs(8), refs(), (available, saved, desired) => {
        const items = queueOf(
          available,
          saved.filter((r) => !available.includes(r)),
        );
        const shown = applyOrder(items, desired);
        expect(availableOrder(shown)).toEqual(desired.filter((r) => available.includes(r)));
        expect(shown.filter((i) => i.position !== null).map((i) => i.position)).toEqual(
          shown.filter((i) => i.position !== null).map((_, k) => k + 1),
        );
        expect(splitQueue(shown).saved).toEqual(splitQueue(items).saved);
      }),
    );
  });

  it('keeps a queue total true when the view drops titles', () => {
    const queue = { items: queueOf(['a', 'b', 'c']), total: 3, etag: 'e' };
    expect(withOrder(queue, ['c', 'a'])).toMatchObject({
      total: 2,
      etag: 'e',
      items: [
        { ref: 'c', position: 1 },
        { ref: 'a', position: 2 },
      ],
    });
  });
});

describe('rebaseOrder', () => {
  it('is the desired order when the queue did not change', () => {
    expect(rebaseOrder(['c', 'a', 'b'], ['a', 'b', 'c'], queueOf(['a', 'b', 'c']))).toEqual(['c', 'a', 'b']);
  });

  it('drops titles removed elsewhere, keeps titles the user adds, and keeps titles added elsewhere after their neighbour', () => {
    // The user saw [a, b, c] and wants [c, x, b, a] (x new); meanwhile b left and y came after a.
    expect(rebaseOrder(['c', 'x', 'b', 'a'], ['a', 'b', 'c'], queueOf(['a', 'y', 'c']))).toEqual(['c', 'x', 'a', 'y']);
  });

  it('puts a title added elsewhere at the top when nothing precedes it', () => {
    expect(rebaseOrder(['b', 'a'], ['a', 'b'], queueOf(['z', 'a', 'b']))).toEqual(['z', 'b', 'a']);
  });

  it('drops a title that is saved now', () => {
    expect(rebaseOrder(['b', 's', 'a'], ['a', 'b', 's'], queueOf(['a', 'b'], ['s']))).toEqual(['b', 'a']);
  });

  it('without the order the user saw, takes the list literally', () => {
    expect(rebaseOrder(['b'], undefined, queueOf(['a', 'b', 'c']))).toEqual(['b']);
  });

  it('undoes an edit when nothing else changed: the order before it, titles it removed back', () => {
    fc.assert(
      fc.property(refs(), fc.func(fc.boolean()), fc.integer({ min: 0, max: 30 }), (before, remove, seed) => {
        const after = before.filter((r) => !remove(r)).map((r, i, all) => all[(i + seed) % all.length]!);
        expect(rebaseOrder(before, after, queueOf(after))).toEqual(before);
      }),
    );
  });

  it('keeps what another device did: nothing it removed comes back, everything it added stays, no title twice', () => {
    fc.assert(
      fc.property(refs(), refs(), refs(), (seen, desired, now) => {
        const result = rebaseOrder(desired, seen, queueOf(now));
        expect(new Set(result).size).toBe(result.length);
        for (const ref of seen) if (!now.includes(ref)) expect(result).not.toContain(ref);
        for (const ref of now) if (!seen.includes(ref)) expect(result).toContain(ref);
        for (const ref of result) expect(desired.includes(ref) || now.includes(ref)).toBe(true);
      }),
    );
  });
});
