import { Column, Utf8Column } from './columns.ts';
import { keepHeavyPrefixes } from './heavy-prefixes.ts';
import { titleWords } from './words.ts';
import { HEAVY_POSTINGS, type WordTable } from './word-table.ts';

/**
 * Collects the searchable titles (movies and series) one by one, then builds the word table.
 * Memory while collecting: a few numbers per title and one string per distinct word.
 */
export class WordTableBuilder {
  private readonly wordIds = new Map<string, number>();
  private readonly ids: number[] = [];
  private readonly ratings: number[] = [];
  private readonly lengths = new Column();
  /** Distinct provisional word ids of title t: `titleWords[titleWordEnd[t - 1] … titleWordEnd[t])`, and their counts. */
  private readonly titleWords = new Column();
  private readonly titleWordCounts = new Column();
  private readonly titleWordEnd = new Column();
  private readonly names = new Utf8Column();
  private readonly nameEnd = new Column();

  /** `heavyPostings`: from how many postings a prefix's first pages are kept (tests lower it). */
  constructor(private readonly heavyPostings = HEAVY_POSTINGS) {}

  /** Adds a title; titles come in ascending id order (the order then breaks ties). */
  add(id: number, title: string, rating: number | null): void {
    if (this.ids.length > 0 && id <= this.ids[this.ids.length - 1]!)
      throw new RangeError(`word table: title ${id} out of id order`);
    const words = titleWords(title);
    const first = this.titleWords.length;
    for (const word of words) {
      let w = this.wordIds.get(word);
      if (w === undefined) {
        w = this.wordIds.size;
        this.wordIds.set(word, w);
      }
      const at = this.titleWords.indexSince(first, w);
      if (at >= 0) this.titleWordCounts.data[at]!++;
      else {
        this.titleWords.push(w);
        this.titleWordCounts.push(1);
      }
    }
    this.ids.push(id);
    this.names.append(title);
    this.nameEnd.push(this.names.length);
    this.ratings.push(rating ?? Number.NaN);
    this.lengths.push(words.length);
    this.titleWordEnd.push(this.titleWords.length);
  }

  /** The table; the event loop runs between its steps (each a pass over the titles or postings). */
  async finish(): Promise<WordTable> {
    const { words, finalId } = this.sortedWords();
    const orders = this.orders();
    await nextTurn();
    const { ids, titleWordStart, titleWords, titleWordCounts, lengths } = this.titlesInSearchOrder(
      orders.bySearch,
      finalId,
    );
    const { names, nameStart } = this.namesInSearchOrder(orders.bySearch);
    const { postingStart, postings } = postingsOf(titleWordStart, titleWords, words.length);
    await nextTurn();
    const table: WordTable = {
      ids,
      names,
      nameStart,
      popularity: orders.popularity,
      byPopularity: orders.byPopularity,
      words,
      postingStart,
      postings,
      titleWordStart,
      titleWords,
      titleWordCounts,
      lengths,
      averageLength: this.averageLength(),
      heavy: new Map(),
      marks: new Uint8Array(ids.length),
    };
    await keepHeavyPrefixes(table, this.heavyPostings);
    return table;
  }

  /** Titles (numbered by arrival) in search order, and search positions by popularity and back. */
  private orders(): { bySearch: Uint32Array; byPopularity: Uint32Array; popularity: Uint32Array } {
    const n = this.ids.length;
    const bySearch = this.searchOrder();
    const position = new Uint32Array(n);
    for (let i = 0; i < n; i++) position[bySearch[i]!] = i;
    const byPopularity = this.popularityOrder();
    for (let p = 0; p < n; p++) byPopularity[p] = position[byPopularity[p]!]!;
    const popularity = new Uint32Array(n);
    for (let p = 0; p < n; p++) popularity[byPopularity[p]!] = p;
    return { bySearch, byPopularity, popularity };
  }

  /** Ids and word lists (final word ids) by search position. */
  private titlesInSearchOrder(
    bySearch: Uint32Array,
    finalId: Uint32Array,
  ): Pick<WordTable, 'ids' | 'titleWordStart' | 'titleWords' | 'titleWordCounts' | 'lengths'> {
    const n = bySearch.length;
    const ids = new Int32Array(n);
    const lengths = new Uint16Array(n);
    const titleWordStart = new Uint32Array(n + 1);
    const titleWords = new Uint32Array(this.titleWords.length);
    const titleWordCounts = new Uint8Array(this.titleWords.length);
    const ends = this.titleWordEnd.view();
    const provisional = this.titleWords.view();
    const counts = this.titleWordCounts.view();
    const wordCounts = this.lengths.view();
    let k = 0;
    for (let i = 0; i < n; i++) {
      const t = bySearch[i]!;
      ids[i] = this.ids[t]!;
      lengths[i] = Math.min(wordCounts[t]!, 0xffff);
      titleWordStart[i] = k;
      for (let j = t === 0 ? 0 : ends[t - 1]!; j < ends[t]!; j++) {
        titleWords[k] = finalId[provisional[j]!]!;
        titleWordCounts[k++] = Math.min(counts[j]!, 0xff);
      }
    }
    titleWordStart[n] = k;
    return { ids, titleWordStart, titleWords, titleWordCounts, lengths };
  }

  /** Words per title, repeats included (bm25's avgdl: FTS5 divides the table's tokens by its rows). */
  private averageLength(): number {
    const lengths = this.lengths.view();
    let total = 0;
    for (let t = 0; t < lengths.length; t++) total += lengths[t]!;
    return lengths.length === 0 ? 1 : total / lengths.length;
  }

  private namesInSearchOrder(bySearch: Uint32Array): Pick<WordTable, 'names' | 'nameStart'> {
    const n = bySearch.length;
    const ends = this.nameEnd.view();
    const names = Buffer.allocUnsafe(this.names.length);
    const nameStart = new Uint32Array(n + 1);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const t = bySearch[i]!;
      const from = t === 0 ? 0 : ends[t - 1]!;
      nameStart[i] = at;
      names.set(this.names.data.subarray(from, ends[t]), at);
      at += ends[t]! - from;
    }
    nameStart[n] = at;
    return { names, nameStart };
  }

  private sortedWords(): { words: string[]; finalId: Uint32Array } {
    const words = [...this.wordIds.keys()].sort();
    const finalId = new Uint32Array(words.length);
    words.forEach((word, i) => (finalId[this.wordIds.get(word)!] = i));
    return { words, finalId };
  }

  /** Collected titles by rating, best first, unrated last, then id. */
  private popularityOrder(): Uint32Array {
    return orderBy(this.ratingRanks(), () => 0);
  }

  /** Collected titles in search order: fewest words, then rating, then id. */
  private searchOrder(): Uint32Array {
    const lengths = this.lengths.view();
    return orderBy(this.ratingRanks(), (t) => lengths[t]!);
  }

  /** Each title's rating as a rank: 0 for the best rating, equal ratings equal ranks, unrated last. */
  private ratingRanks(): { ranks: Uint32Array; count: number } {
    const distinct = [...new Set(this.ratings)].sort(byRating);
    const rankOf = new Map(distinct.map((r, i) => [r, i]));
    const ranks = new Uint32Array(this.ratings.length);
    for (let t = 0; t < ranks.length; t++) ranks[t] = rankOf.get(this.ratings[t]!)!;
    return { ranks, count: distinct.length };
  }
}

/**
 * Titles (numbered in order of arrival, which is id order) sorted by `major`, then rating rank,
 * then id: each title's three keys packed into one exact double and sorted as numbers.
 */
function orderBy(rating: { ranks: Uint32Array; count: number }, major: (t: number) => number): Uint32Array {
  const n = rating.ranks.length;
  const idBits = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  const keys = new Float64Array(n);
  let largest = 0;
  for (let t = 0; t < n; t++) {
    const key = (major(t) * rating.count + rating.ranks[t]!) * idBits + t;
    keys[t] = key;
    if (key > largest) largest = key;
  }
  if (largest >= Number.MAX_SAFE_INTEGER) throw new RangeError('word table: too many titles to order');
  keys.sort();
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k]! % idBits;
  return order;
}

/** Each word's titles, by search position ascending (a counting sort of the title word lists). */
function postingsOf(
  titleWordStart: Uint32Array,
  titleWords: Uint32Array,
  wordCount: number,
): Pick<WordTable, 'postingStart' | 'postings'> {
  const postingStart = new Uint32Array(wordCount + 1);
  for (let k = 0; k < titleWords.length; k++) postingStart[titleWords[k]! + 1]!++;
  for (let w = 0; w < wordCount; w++) postingStart[w + 1]! += postingStart[w]!;
  const postings = new Uint32Array(titleWords.length);
  const fill = postingStart.slice(0, wordCount);
  for (let i = 0; i + 1 < titleWordStart.length; i++) {
    for (let j = titleWordStart[i]!; j < titleWordStart[i + 1]!; j++) postings[fill[titleWords[j]!]!++] = i;
  }
  return { postingStart, postings };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Higher rating first; NaN (unrated) after every rating, as `average_rating DESC` sorts NULL. */
function byRating(a: number, b: number): number {
  if (a === b) return 0;
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return b - a;
}
