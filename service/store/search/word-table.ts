/**
 * The catalog's title words in memory, built once per catalog generation (catalog-words.ts):
 * what title search and autocomplete answer from, on SQLite and PostgreSQL alike.
 *
 * Titles are numbered by "search position": fewest words first, then best rated, then id — the
 * order bm25 (bm25.ts) gives titles in which each word of a term occurs once — so a word's
 * postings, kept in that numbering, list its titles nearly in search order. Words are sorted, so
 * the words a prefix matches are one contiguous run. A prefix whose run holds many postings (a
 * "heavy" one: short prefixes, common words) has its title count and first titles in both orders
 * kept, so no request walks its postings for a first page.
 */
export interface WordTable {
  /** Title ids by search position. */
  ids: Int32Array;
  /** Titles' names (what autocomplete answers), UTF-8, by search position: `names[nameStart[i] … nameStart[i + 1])`. */
  names: Buffer;
  nameStart: Uint32Array;
  /** Popularity rank (best rated first, then id: autocomplete's order) by search position. */
  popularity: Uint32Array;
  /** Search positions in popularity order. */
  byPopularity: Uint32Array;
  /** Every distinct title word, sorted by UTF-16 code unit (a prefix's words are one run). */
  words: string[];
  /** Postings of word w: `postings[postingStart[w] … postingStart[w + 1])`, search positions ascending. */
  postingStart: Uint32Array;
  postings: Uint32Array;
  /** Distinct words of the title at search position i: `titleWords[titleWordStart[i] … titleWordStart[i + 1])`. */
  titleWordStart: Uint32Array;
  titleWords: Uint32Array;
  /** How often each of those words occurs in its title (at most 255). */
  titleWordCounts: Uint8Array;
  /** Words of each title, repeats included (bm25's document length), by search position. */
  lengths: Uint16Array;
  /** Words per title over the whole table (bm25's average document length). */
  averageLength: number;
  /** Prefixes whose words hold more than HEAVY_POSTINGS postings. */
  heavy: Map<string, HeavyPrefix>;
  /** Scratch marks, one per title (queries run one at a time on the event loop): cleared after use. */
  marks: Uint8Array;
}

export interface HeavyPrefix {
  /** Titles with a word starting with the prefix. */
  count: number;
  /** The first of them in search order: bm25 for the prefix alone, then popularity (search positions). */
  first: Uint32Array;
  /** The first of them in popularity order (search positions). */
  best: Uint32Array;
}

/** A prefix with more postings than this is heavy: its first pages are kept (see HeavyPrefix). */
export const HEAVY_POSTINGS = 2048;
/** Titles kept per heavy prefix, in each order: the largest page either resource answers. */
export const KEPT_PER_PREFIX = 100;

/** The run of words starting with `prefix`: [lo, hi). */
export interface WordRun {
  lo: number;
  hi: number;
}

export function wordRun(table: WordTable, prefix: string): WordRun {
  const { words } = table;
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const start = lo;
  hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return { lo: start, hi: lo };
}

export function postingsIn(table: WordTable, run: WordRun): number {
  return table.postingStart[run.hi]! - table.postingStart[run.lo]!;
}

export function nameAt(table: WordTable, i: number): string {
  return table.names.toString('utf8', table.nameStart[i], table.nameStart[i + 1]);
}

/** Whether the title at search position i has a word in every run. */
export function hasWordsIn(table: WordTable, i: number, runs: readonly WordRun[]): boolean {
  const { titleWords, titleWordStart } = table;
  const from = titleWordStart[i]!;
  const to = titleWordStart[i + 1]!;
  for (const run of runs) {
    let found = false;
    for (let k = from; k < to; k++) {
      const w = titleWords[k]!;
      if (w >= run.lo && w < run.hi) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
