import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLocally } from '../../electron/core/queue/intents.ts';
import { planSteps, rebaseOrder, type BulkStep } from '../../shared/pure/queue-plan.ts';
import type { QueueItem } from '../../shared/models.ts';

/**
 * The bulk planner on its own: the single edits it plans turn any queue into any order, in as
 * few moves as the titles already in order allow; a desired order rebased onto a changed queue
 * keeps what the user meant and what another device did.
 */
const item = (ref: string, position: number | null): QueueItem =>
  ({ ref, position, title: ref, itemRef: `item/${ref}` }) as unknown as QueueItem;
const queueOf = (available: string[], saved: string[] = []) => [...available.map((r, i) => item(r, i + 1)), ...saved.map((r) => item(r, null))];

/** What the service does with the steps, one at a time. */
function replay(start: string[], steps: BulkStep[]): string[] {
  const order = [...start];
  for (const step of steps) {
    const at = order.indexOf(step.ref);
    if (at >= 0) order.splice(at, 1);
    if (step.op !== 'remove') order.splice(step.position - 1, 0, step.ref);
  }
  return order;
}

const refs = fc.uniqueArray(fc.integer({ min: 1, max: 40 }).map(String), { maxLength: 25 });

describe('planSteps', () => {
  it('turns any queue into any order (titles left out removed, new ones added)', () => {
    fc.assert(
      fc.property(refs, refs, (start, desired) => {
        expect(replay(start, planSteps(queueOf(start), desired))).toEqual(desired);
      }),
      { numRuns: 300 },
    );
  });

  it('moves only the titles out of order: one move to put the last title first', () => {
    const steps = planSteps(queueOf(['a', 'b', 'c', 'd', 'e']), ['e', 'a', 'b', 'c', 'd']);
    expect(steps).toEqual([{ op: 'move', ref: 'e', position: 1 }]);
  });

  it('removes left-out titles last position first, before any move', () => {
    const steps = planSteps(queueOf(['a', 'b', 'c', 'd']), ['d', 'b']);
    expect(steps.map((s) => [s.op, s.ref])).toEqual([['remove', 'c'], ['remove', 'a'], ['move', 'b']]);
  });

  it('leaves saved titles alone', () => {
    expect(planSteps(queueOf(['a', 'b'], ['s']), ['b', 'a']).some((s) => s.ref === 's')).toBe(false);
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
});

describe('the optimistic view of a waiting replace', () => {
  it('shows the queue in the desired order, saved titles after', () => {
    const shown = applyLocally(queueOf(['a', 'b', 'c'], ['s']), { op: 'replace', kind: 'instant', refs: ['c', 'a'], base: ['a', 'b', 'c'] });
    expect(shown.map((i) => [i.ref, i.position])).toEqual([['c', 1], ['a', 2], ['s', null]]);
  });
});
