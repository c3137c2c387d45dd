import { postingsIn, type WordRun, type WordTable } from './word-table.ts';

/**
 * Title search's order: FTS5's bm25 (ext/fts5/fts5_aux.c, the order SQLite's full-text index gave
 * and its tests pinned), then best rated, then id. Each word of the term is a phrase whose
 * frequency in a title is how many of the title's words it begins; the same constants and the
 * same expression, in the same order, so equal inputs give the very same doubles as FTS5's.
 */
const K1 = 1.2;
const B = 0.75;

/** One word of a term as scored: its run of table words and its inverse document frequency. */
export interface ScoredWord {
  run: WordRun;
  idf: number;
}

/** FTS5's IDF: log((N − n + 0.5) / (n + 0.5)), at least 1e-6 (a word in over half the titles). */
export function idfOf(titles: number, hits: number): number {
  const idf = Math.log((titles - hits + 0.5) / (hits + 0.5));
  return idf <= 0.0 ? 1e-6 : idf;
}

/** How many of the words of the title at search position i lie in `run` (repeats counted). */
export function frequencyIn(table: WordTable, i: number, run: WordRun): number {
  let f = 0;
  for (let k = table.titleWordStart[i]!; k < table.titleWordStart[i + 1]!; k++) {
    const w = table.titleWords[k]!;
    if (w >= run.lo && w < run.hi) f += table.titleWordCounts[k]!;
  }
  return f;
}

/** The title's bm25 score for the term's words, in the term's order (higher is better). */
export function scoreOf(table: WordTable, i: number, words: readonly ScoredWord[]): number {
  const D = table.lengths[i]!;
  let score = 0.0;
  for (const { run, idf } of words) {
    const f = frequencyIn(table, i, run);
    score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / table.averageLength)));
  }
  return score;
}

/** How many titles have a word in the run (each counted once). */
export function titlesIn(table: WordTable, run: WordRun): number {
  if (run.hi - run.lo === 1) return postingsIn(table, run);
  const positions = table.postings.slice(table.postingStart[run.lo], table.postingStart[run.hi]).sort();
  let n = 0;
  for (let k = 0; k < positions.length; k++) if (k === 0 || positions[k] !== positions[k - 1]) n++;
  return n;
}

/**
 * The first `count` of `positions` in search order: score descending, then popularity (rating,
 * then id). A bounded selection: every candidate is scored once, only the kept ones are sorted.
 */
export function firstInSearchOrder(
  table: WordTable,
  positions: ArrayLike<number>,
  words: readonly ScoredWord[],
  count: number,
): Uint32Array {
  const n = positions.length;
  const scores = new Float64Array(n);
  for (let k = 0; k < n; k++) scores[k] = scoreOf(table, positions[k]!, words);
  const keep = Math.min(count, n);
  if (keep === 0) return new Uint32Array(0);
  const before = (a: number, b: number) =>
    scores[a]! > scores[b]! ||
    (scores[a] === scores[b] && table.popularity[positions[a]!]! < table.popularity[positions[b]!]!);
  const order = n <= 4 * keep ? sortAll(n, before) : selectFirst(n, keep, before);
  const out = new Uint32Array(keep);
  for (let k = 0; k < keep; k++) out[k] = positions[order[k]!]!;
  return out;
}

function sortAll(n: number, before: (a: number, b: number) => boolean): Uint32Array {
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  return order.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}

/** The `keep` first of n candidates: a max-heap of the kept ones, worst on top. */
function selectFirst(n: number, keep: number, before: (a: number, b: number) => boolean): Uint32Array {
  const heap: number[] = [];
  const up = (c: number) => {
    while (c > 0) {
      const parent = (c - 1) >> 1;
      if (!before(heap[parent]!, heap[c]!)) break;
      [heap[parent], heap[c]] = [heap[c]!, heap[parent]!];
      c = parent;
    }
  };
  const down = (c: number) => {
    for (;;) {
      const l = 2 * c + 1;
      const r = l + 1;
      let worst = c;
      if (l < heap.length && before(heap[worst]!, heap[l]!)) worst = l;
      if (r < heap.length && before(heap[worst]!, heap[r]!)) worst = r;
      if (worst === c) return;
      [heap[worst], heap[c]] = [heap[c]!, heap[worst]!];
      c = worst;
    }
  };
  for (let k = 0; k < n; k++) {
    if (heap.length < keep) {
      heap.push(k);
      up(heap.length - 1);
    } else if (before(k, heap[0]!)) {
      heap[0] = k;
      down(0);
    }
  }
  return Uint32Array.from(heap).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}
