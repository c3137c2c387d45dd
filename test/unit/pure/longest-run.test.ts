import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longestAscendingRun } from '../../../shared/pure/longest-run.ts';
import { longestRunLength } from './helpers.ts';

/** The longest-run routine the service's order keys and the app's bulk planner share. */
describe('longestAscendingRun', () => {
  it('finds a longest strictly ascending subsequence, skipping unknown keys', () => {
    const keys = [5, 1, undefined, 2, 9, 3, 3, 4];
    const run = [...longestAscendingRun(keys)].sort();
    expect(run).toHaveLength(4);
    expect(run.map((i) => keys[i]!)).toEqual([1, 2, 3, 4]);
    expect(longestAscendingRun([]).size).toBe(0);
    expect(longestAscendingRun([undefined, undefined]).size).toBe(0);
  });

  it('answers indexes of defined keys, strictly ascending, as many as the longest run has', () => {
    const keys = fc.array(fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }), { maxLength: 40 });
    fc.assert(
      fc.property(keys, (k) => {
        const run = [...longestAscendingRun(k)].sort((a, b) => a - b);
        expect(run).toHaveLength(longestRunLength(k));
        const values = run.map((i) => k[i]);
        expect(values.every((v) => v !== undefined)).toBe(true);
        values.forEach((v, i) => i > 0 && expect(v!).toBeGreaterThan(values[i - 1]!));
      }),
      { numRuns: 500 },
    );
  });
});
