import fc from 'fast-check';

/** Queue items as the pure functions read them: a title ref, a position (null: saved), the item's URL. */
export const item = (ref: string, position: number | null) => ({ ref, position, itemRef: `item/${ref}` });

/** A queue with `available` in that order (positions 1..n) and `saved` after it. */
export const queueOf = (available: readonly string[], saved: readonly string[] = []) => [
  ...available.map((r, i) => item(r, i + 1)),
  ...saved.map((r) => item(r, null)),
];

/** Distinct title refs. */
export const refs = (maxLength = 25) => fc.uniqueArray(fc.integer({ min: 1, max: 60 }).map(String), { maxLength });

/** The length of a longest strictly ascending subsequence, the slow way (O(n²)): what the fast routine must match. */
export function longestRunLength(keys: readonly (number | undefined)[]): number {
  const best: number[] = [];
  let longest = 0;
  keys.forEach((key, i) => {
    best[i] = 0;
    if (key === undefined) return;
    best[i] = 1;
    for (let j = 0; j < i; j++) {
      const before = keys[j];
      if (before !== undefined && before < key) best[i] = Math.max(best[i], best[j]! + 1);
    }
    longest = Math.max(longest, best[i]);
  });
  return longest;
}
