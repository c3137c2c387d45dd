import type { SearchPage } from './types.ts';
import { firstInSearchOrder, idfOf, titlesIn, type ScoredWord } from './bm25.ts';
import { SmallestKept } from './smallest-kept.ts';
import {
  hasWordsIn,
  nameAt,
  postingsIn,
  wordRun,
  type HeavyPrefix,
  type WordRun,
  type WordTable,
} from './word-table.ts';

/**
 * How a term is answered: every word must start a word of the title. The word with the fewest
 * postings drives (its titles are the candidates); the others are checked on each candidate's
 * own words. A word whose run holds another's is implied by it and dropped.
 */
interface Plan {
  driver: WordRun;
  /** The driver's kept first pages, when it is a heavy prefix. */
  heavy: HeavyPrefix | undefined;
  others: WordRun[];
}

function planFor(table: WordTable, words: readonly string[]): Plan | null {
  const runs = words.map((word) => ({ word, run: wordRun(table, word) }));
  if (runs.length === 0 || runs.some((r) => r.run.lo === r.run.hi)) return null;
  runs.sort((a, b) => postingsIn(table, a.run) - postingsIn(table, b.run));
  const [driver, ...rest] = runs;
  const others = rest.map((r) => r.run).filter((run) => !(run.lo <= driver!.run.lo && driver!.run.hi <= run.hi));
  return { driver: driver!.run, heavy: table.heavy.get(driver!.word), others };
}

/**
 * One page of matching titles in search order (bm25.ts: bm25, then rating, then id) and how many
 * match. A heavy prefix alone answers its first pages from the kept ones; otherwise every match
 * is scored and only the page's end kept (a light word: at most HEAVY_POSTINGS candidates).
 */
export function searchTitles(table: WordTable, words: readonly string[], offset: number, limit: number): SearchPage {
  const plan = planFor(table, words);
  if (!plan) return { ids: [], total: 0 };
  const { heavy, others } = plan;
  if (heavy && others.length === 0) {
    if (offset >= heavy.count) return { ids: [], total: heavy.count };
    if (offset + limit <= heavy.first.length || heavy.first.length === heavy.count) {
      return { ids: idsOf(table, heavy.first.subarray(offset, offset + limit)), total: heavy.count };
    }
  }
  const matches = heavy ? markedMatches(table, plan) : lightMatches(table, plan);
  if (offset >= matches.length) return { ids: [], total: matches.length };
  const first = firstInSearchOrder(table, matches, scoredWords(table, words), offset + limit);
  return { ids: idsOf(table, first.subarray(offset)), total: matches.length };
}

/** The term's words as bm25 scores them, in the term's order (repeats kept, as FTS5 keeps its phrases). */
function scoredWords(table: WordTable, words: readonly string[]): ScoredWord[] {
  return words.map((word) => {
    const run = wordRun(table, word);
    return { run, idf: idfOf(table.ids.length, table.heavy.get(word)?.count ?? titlesIn(table, run)) };
  });
}

/** Up to `limit` matching titles, best rated first (then id): their ids and names. */
export function autocompleteTitles(
  table: WordTable,
  words: readonly string[],
  limit: number,
): Array<{ id: number; title: string }> {
  return Array.from(bestMatches(table, words, limit), (i) => ({ id: table.ids[i]!, title: nameAt(table, i) }));
}

function bestMatches(table: WordTable, words: readonly string[], limit: number): Uint32Array {
  const plan = planFor(table, words);
  if (!plan) return new Uint32Array(0);
  const { heavy, others } = plan;
  if (!heavy) return bestRated(table, lightMatches(table, plan), limit);
  const kept = others.length === 0 ? heavy.best : heavy.best.filter((i) => hasWordsIn(table, i, others));
  if (kept.length >= limit || heavy.best.length === heavy.count) return kept.subarray(0, limit);
  return firstByPopularity(table, [plan.driver, ...others], limit);
}

/** A light driver's titles (at most HEAVY_POSTINGS postings) that have every other word, each once, by search position. */
function lightMatches(table: WordTable, plan: Plan): Uint32Array {
  const from = table.postingStart[plan.driver.lo]!;
  const to = table.postingStart[plan.driver.hi]!;
  const positions = table.postings.slice(from, to);
  // Several words of the run: their postings interleave (and a title may hold two of them).
  if (plan.driver.hi - plan.driver.lo > 1) positions.sort();
  let n = 0;
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k]!;
    if (n > 0 && positions[n - 1] === i) continue;
    if (plan.others.length > 0 && !hasWordsIn(table, i, plan.others)) continue;
    positions[n++] = i;
  }
  return positions.subarray(0, n);
}

/** A heavy driver's titles that have every other word, each once (marked, then the marks cleared). */
function markedMatches(table: WordTable, plan: Plan): Uint32Array {
  const { marks, postings } = table;
  const found: number[] = [];
  for (let k = table.postingStart[plan.driver.lo]!; k < table.postingStart[plan.driver.hi]!; k++) {
    const i = postings[k]!;
    if (marks[i] === 1 || !hasWordsIn(table, i, plan.others)) continue;
    marks[i] = 1;
    found.push(i);
  }
  for (const i of found) marks[i] = 0;
  return Uint32Array.from(found);
}

function bestRated(table: WordTable, positions: Uint32Array, limit: number): Uint32Array {
  const kept = new SmallestKept(limit);
  for (let k = 0; k < positions.length; k++) kept.offer(table.popularity[positions[k]!]!);
  return kept.sorted().map((p) => table.byPopularity[p]!);
}

/** Walks all titles in popularity order until `limit` have a word in every run (rare terms only get here). */
function firstByPopularity(table: WordTable, runs: readonly WordRun[], limit: number): Uint32Array {
  const found: number[] = [];
  for (let p = 0; p < table.byPopularity.length && found.length < limit; p++) {
    const i = table.byPopularity[p]!;
    if (hasWordsIn(table, i, runs)) found.push(i);
  }
  return Uint32Array.from(found);
}

function idsOf(table: WordTable, positions: Uint32Array): number[] {
  const ids = new Array<number>(positions.length);
  for (let k = 0; k < positions.length; k++) ids[k] = table.ids[positions[k]!]!;
  return ids;
}
