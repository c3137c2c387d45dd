import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyIntent } from '../../../shared/pure/queue-intent.ts';
import { availableOrder, moveRef } from '../../../shared/pure/queue-order.ts';
import { queueOf, refs } from './helpers.ts';

/** A waiting edit applied to the queue without the service: the optimistic queue the app shows. */
const refsAndPick = refs()
  .filter((l) => l.length > 0)
  .chain((list) => fc.tuple(fc.constant(list), fc.constantFrom(...list)));

describe('applyIntent', () => {
  it('moves an available title to the position (clamped to the queue), positions 1..n', () => {
    fc.assert(
      fc.property(refsAndPick, fc.integer({ min: 1, max: 40 }), ([list, ref], position) => {
        const shown = applyIntent(queueOf(list, ['saved']), { op: 'move', ref, position });
        expect(availableOrder(shown)).toEqual(moveRef(list, ref, position));
        expect(shown.map((i) => i.position)).toEqual([...list.map((_, i) => i + 1), null]);
      }),
    );
  });

  it('removes a title and renumbers the rest', () => {
    const shown = applyIntent(queueOf(['a', 'b', 'c'], ['s']), { op: 'remove', ref: 'b' });
    expect(shown.map((i) => [i.ref, i.position])).toEqual([
      ['a', 1],
      ['c', 2],
      ['s', null],
    ]);
  });

  it('changes nothing for an add (no item to show yet), a saved title or a title not in the queue', () => {
    const items = queueOf(['a', 'b'], ['s']);
    expect(applyIntent(items, { op: 'add', ref: 'x' })).toBe(items);
    expect(applyIntent(items, { op: 'move', ref: 's', position: 1 })).toBe(items);
    expect(applyIntent(items, { op: 'move', ref: 'x', position: 1 })).toBe(items);
    expect(applyIntent(items, { op: 'remove', ref: 'x' })).toBe(items);
  });

  it('shows a waiting replace in the desired order, saved titles after', () => {
    const shown = applyIntent(queueOf(['a', 'b', 'c'], ['s']), {
      op: 'replace',
      refs: ['c', 'a'],
      base: ['a', 'b', 'c'],
    });
    expect(shown.map((i) => [i.ref, i.position])).toEqual([
      ['c', 1],
      ['a', 2],
      ['s', null],
    ]);
  });
});
