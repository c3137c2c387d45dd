// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { contentOf, placedOf, sameOrder, savedChanges, withContent } from '../../renderer/queries/queue-content.ts';
import { contentAfter } from '../../renderer/queries/queue-edits.ts';
import { item, queueOf } from './fixtures.ts';

const refsOf = (items: readonly { ref: string }[]) => items.map((i) => i.ref);

describe('queue content', () => {
  test('contentOf splits the available order from the saved titles; no queue is empty', () => {
    const content = contentOf(queueOf(['a', 'b', 'c'], ['s']));
    expect(content.order).toEqual(['a', 'b', 'c']);
    expect(refsOf(content.saved)).toEqual(['s']);
    expect(contentOf(undefined)).toEqual({ order: [], saved: [] });
  });

  test('withContent shows a new order numbered from 1 and counts saved titles added or gone', () => {
    const queue = queueOf(['a', 'b', 'c'], ['s']);
    const shown = withContent(queue, { order: ['c', 'a'], saved: [item('s', null), item('t', null)] });
    expect(shown.items.map((i) => [i.ref, i.position])).toEqual([
      ['c', 1],
      ['a', 2],
      ['s', null],
      ['t', null],
    ]);
    expect(shown.total).toBe(4);
  });

  test('savedChanges brings back a saved title an edit removed, unless it is queued again', () => {
    const before = { order: ['a'], saved: [item('s', null)] };
    const after = { order: ['a'], saved: [] };
    expect(refsOf(savedChanges(before, after, after).add)).toEqual(['s']);
    expect(savedChanges(before, after, { order: ['a', 's'], saved: [] }).add).toEqual([]);
  });

  test('savedChanges takes out again a saved title the edit brought, if it is still saved', () => {
    const target = { order: [], saved: [] };
    const undone = { order: [], saved: [item('s', null)] };
    expect(refsOf(savedChanges(target, undone, undone).remove)).toEqual(['s']);
  });

  test('sameOrder and placedOf', () => {
    expect(sameOrder(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameOrder(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameOrder(['a'], ['a', 'b'])).toBe(false);
    expect(placedOf({ order: ['x', 'y'], saved: [item('s', null)] }).map((p) => [p.ref, p.position])).toEqual([
      ['x', 1],
      ['y', 2],
      ['s', null],
    ]);
  });
});

describe('contentAfter (the optimistic view of each edit)', () => {
  const before = { order: ['a', 'b', 'c', 'd'], saved: [item('s', null)] };

  test('a move puts the title at its 1-based position', () => {
    expect(contentAfter(before, { type: 'move', ref: 'd', position: 1, label: '' }).order).toEqual([
      'd',
      'a',
      'b',
      'c',
    ]);
    expect(contentAfter(before, { type: 'move', ref: 'a', position: 3, label: '' }).order).toEqual([
      'b',
      'c',
      'a',
      'd',
    ]);
  });

  test('a remove takes the title out of the order or the saved titles', () => {
    expect(contentAfter(before, { type: 'remove', ref: 'b', label: '' }).order).toEqual(['a', 'c', 'd']);
    expect(contentAfter(before, { type: 'remove', ref: 's', label: '' }).saved).toEqual([]);
  });

  test('a replace sets the order and keeps the saved titles', () => {
    const after = contentAfter(before, { type: 'replace', refs: ['c', 'a'], label: '' });
    expect(after.order).toEqual(['c', 'a']);
    expect(refsOf(after.saved)).toEqual(['s']);
  });

  test('a restore sets the order (or keeps it), adds and removes saved titles', () => {
    const after = contentAfter(before, {
      type: 'restore',
      refs: null,
      add: [item('t', null)],
      remove: [item('s', null)],
      label: '',
    });
    expect(after.order).toEqual(before.order);
    expect(refsOf(after.saved)).toEqual(['t']);
    expect(
      contentAfter(before, { type: 'restore', refs: ['d', 'c', 'b', 'a'], add: [], remove: [], label: '' }).order,
    ).toEqual(['d', 'c', 'b', 'a']);
  });

  test('moving a saved title in puts it at the end of the order, out of the saved titles, and shows it at once', () => {
    const after = contentAfter(before, { type: 'moveIn', item: item('s', null), format: 'instant', label: '' });
    expect(after.order).toEqual([...before.order, 's']);
    expect(after.saved).toEqual([]);
    const shown = withContent(queueOf(before.order, ['s']), after);
    expect(shown.items.map((i) => [i.ref, i.position, i.availability])).toEqual([
      ['a', 1, 'available now'],
      ['b', 2, 'available now'],
      ['c', 3, 'available now'],
      ['d', 4, 'available now'],
      ['s', 5, 'available now'],
    ]);
    expect(shown.total).toBe(5);
  });

  test('undoing a move in adds the title back (the order the undo sets leaves it out), never drops it', () => {
    const after = contentAfter(before, { type: 'moveIn', item: item('s', null), format: 'instant', label: '' });
    expect(refsOf(savedChanges(before, after, { order: before.order, saved: after.saved }).add)).toEqual(['s']);
  });
});
