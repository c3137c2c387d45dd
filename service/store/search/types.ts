import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { WordTableState } from './catalog-words.ts';

export interface SearchPage {
  ids: number[];
  total: number;
}

/**
 * Search over titles (movies and series) and people. Terms match word prefixes, all words
 * required. Titles are answered from the catalog's word table in memory (catalog-words.ts, the
 * same on both dialects); people, and titles combined with browse filters, from the dialect's
 * full-text index (SQLite FTS5; PostgreSQL tsvector + GIN), which the catalog load fills.
 */
export interface Search {
  /** Adds rows to the full-text index inside the caller's transaction. */
  indexTitles(trx: Kysely<Database>, rows: Array<{ id: number; title: string; popularity: number }>): Promise<void>;
  indexPeople(trx: Kysely<Database>, rows: Array<{ id: number; name: string }>): Promise<void>;
  /** Titles with the fewest words first (bm25's order when each word occurs once), then best rated, then id. */
  titles(term: string, offset: number, limit: number): Promise<SearchPage>;
  people(term: string, offset: number, limit: number): Promise<SearchPage>;
  /** Titles whose words start with the term's words, best rated first, then id: ids and names. */
  autocomplete(term: string, limit: number): Promise<Array<{ id: number; title: string }>>;
  /** Builds the catalog's word table now rather than at the first title search (a failure is left to that search to meet). */
  prepare(): Promise<void>;
  /** The word table's state now (built, size, last build's seconds), without waiting for a build. */
  wordTable(): WordTableState;
  /** A subquery of the ids of titles matching the term (null when the term has no words), for filters. */
  titleMatch(term: string): RawBuilder<number> | null;
}

/** The dialect's part: the full-text index. */
export type FullTextSearch = Omit<Search, 'titles' | 'autocomplete' | 'prepare' | 'wordTable'>;
