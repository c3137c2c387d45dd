import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planSteps, type BulkStep } from '../../../shared/pure/queue-plan.ts';
import { longestRunLength, queueOf, refs } from './helpers.ts';

/**
 * The bulk planner on its own: the single edits it plans turn any queue into any order, in as
 * few moves as the titles already in order allow.
 */

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

describe('planSteps', () => {
  it('turns any queue into any order (titles left out removed, new ones added)', () => {
    fc.assert(
      fc.property(refs(), refs(), (start, desired) => {
        expect(replay(start, planSteps(queueOf(start), desired))).toEqual(desired);
      }),
      { numRuns: 300 },
    );
  });

  it('places only the titles outside a longest run already in the desired order', () => {
    fc.assert(
      fc.property(refs(), refs(), (start, desired) => {
        const rank = new Map(desired.map((ref, i) => [ref, i]));
        const kept = start.filter((ref) => rank.has(ref));
        const placed = planSteps(queueOf(start), desired).filter((s) => s.op !== 'remove');
        expect(placed).toHaveLength(desired.length - longestRunLength(kept.map((ref) => rank.get(ref))));
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
    expect(steps.map((s) => [s.op, s.ref])).toEqual([
      ['remove', 'c'],
      ['remove', 'a'],
      ['move', 'b'],
    ]);
  });

  it('leaves saved titles alone', () => {
    expect(planSteps(queueOf(['a', 'b'], ['s']), ['b', 'a']).some((s) => s.ref === 's')).toBe(false);
  });
});
