import { firstInSearchOrder, frequencyIn, idfOf } from './bm25.ts';
import { SmallestKept } from './smallest-kept.ts';
import { KEPT_PER_PREFIX, type HeavyPrefix, type WordRun, type WordTable } from './word-table.ts';

/** Postings walked between two turns of the event loop while heavy prefixes are kept. */
const POSTINGS_PER_TURN = 200_000;

/**
 * Finds every heavy prefix, shortest first (a longer prefix can only be heavy if its shorter one
 * is) and keeps its first pages; the event loop runs between prefixes every POSTINGS_PER_TURN.
 */
export async function keepHeavyPrefixes(table: WordTable, heavyPostings: number): Promise<void> {
  const { words } = table;
  const seen = new Uint32Array(table.ids.length);
  let stamp = 0;
  let walked = 0;
  let runs: WordRun[] = [{ lo: 0, hi: words.length }];
  for (let length = 1; runs.length > 0; length++) {
    const next: WordRun[] = [];
    for (const { lo: from, hi: to } of runs) {
      let lo = from;
      while (lo < to) {
        if (words[lo]!.length < length) {
          lo++;
          continue;
        }
        const prefix = words[lo]!.slice(0, length);
        let hi = lo + 1;
        while (hi < to && words[hi]!.startsWith(prefix)) hi++;
        const postings = table.postingStart[hi]! - table.postingStart[lo]!;
        if (postings > heavyPostings) {
          table.heavy.set(prefix, heavyPrefix(table, { lo, hi }, seen, ++stamp));
          next.push({ lo, hi });
          walked += postings;
          if (walked > POSTINGS_PER_TURN) {
            walked = 0;
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        lo = hi;
      }
    }
    runs = next;
  }
}

/**
 * Counts the run's titles and keeps the first KEPT_PER_PREFIX in each order. For bm25 only a
 * title's frequency (how many of its words the prefix begins) and its length matter, and among
 * titles of one frequency search positions are already in order: so the first KEPT_PER_PREFIX
 * positions of each frequency are the only candidates scored.
 */
function heavyPrefix(table: WordTable, run: WordRun, seen: Uint32Array, stamp: number): HeavyPrefix {
  const best = new SmallestKept(KEPT_PER_PREFIX);
  const byFrequency: SmallestKept[] = [];
  const { postings, popularity } = table;
  let count = 0;
  for (let k = table.postingStart[run.lo]!; k < table.postingStart[run.hi]!; k++) {
    const i = postings[k]!;
    if (seen[i] === stamp) continue;
    seen[i] = stamp;
    count++;
    best.offer(popularity[i]!);
    const f = frequencyIn(table, i, run);
    (byFrequency[f] ??= new SmallestKept(KEPT_PER_PREFIX)).offer(i);
  }
  const candidates = byFrequency.flatMap((kept) => (kept ? Array.from(kept.sorted()) : []));
  return {
    count,
    first: firstInSearchOrder(table, candidates, [{ run, idf: idfOf(table.ids.length, count) }], KEPT_PER_PREFIX),
    best: best.sorted().map((p) => table.byPopularity[p]!),
  };
}
