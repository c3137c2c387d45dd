/**
 * Indexes (into `keys`) of a longest strictly ascending subsequence of the defined keys, found by
 * patience sorting in O(n log n). The service keeps the order keys of these queue entries; the app
 * leaves these titles where they are when it turns one order into another by single moves.
 */
export function longestAscendingRun(keys: readonly (number | undefined)[]): Set<number> {
  const tails: number[] = []; // tails[l]: index of the smallest last key of an ascending run of length l + 1
  const previous = new Array<number>(keys.length).fill(-1);
  keys.forEach((key, i) => {
    if (key === undefined) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[tails[mid]!]! < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const run = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) run.add(i);
  return run;
}
