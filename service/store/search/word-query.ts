import type { SearchPage } from './types.ts';
import { SmallestKept } from './smallest-kept.ts';
import { hasWordsIn, nameAt, postingsIn, wordRun, type HeavyPrefix, type WordRun, type WordTable } from './word-table.ts';

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

/** One page of matching titles in search order (see word-table.ts), and how many match. */
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
  if (!heavy) {
    const matches = lightMatches(table, plan);
    return { ids: idsOf(table, matches.subarray(offset, offset + limit)), total: matches.length };
  }
  return markedPage(table, plan, offset, limit);
}

/** Up to `limit` matching titles, best rated first (then id): their ids and names. */
export function autocompleteTitles(table: WordTable, words: readonly string[], limit: number): Array<{ id: number; title: string }> {
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

/** A light driver's titles (at most HEAVY_POSTINGS postings), checked, in search order. */
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

/**
 * A heavy driver with more words, or a page past the kept ones: every candidate is checked once
 * and marked, then the marks are read in search order up to the page's end.
 */
function markedPage(table: WordTable, plan: Plan, offset: number, limit: number): SearchPage {
  const { marks, postings } = table;
  let total = 0;
  let last = 0;
  for (let k = table.postingStart[plan.driver.lo]!; k < table.postingStart[plan.driver.hi]!; k++) {
    const i = postings[k]!;
    if (marks[i] === 1 || !hasWordsIn(table, i, plan.others)) continue;
    marks[i] = 1;
    total++;
    if (i > last) last = i;
  }
  const page: number[] = [];
  let seen = 0;
  for (let i = 0; i <= last && total > 0 && page.length < limit; i++) {
    if (marks[i] !== 1) continue;
    if (seen++ >= offset) page.push(table.ids[i]!);
  }
  marks.fill(0, 0, last + 1);
  return { ids: page, total };
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
