import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';

export interface SearchPage {
  ids: number[];
  total: number;
}

/**
 * Full-text search over titles (movies and series) and people: one interface, one implementation
 * per dialect (SQLite FTS5; PostgreSQL tsvector + GIN). Terms match word prefixes, all words required.
 */
export interface Search {
  /** Adds rows to the index inside the caller's transaction. */
  indexTitles(trx: Kysely<Database>, rows: Array<{ id: number; title: string; popularity: number }>): Promise<void>;
  indexPeople(trx: Kysely<Database>, rows: Array<{ id: number; name: string }>): Promise<void>;
  titles(term: string, offset: number, limit: number): Promise<SearchPage>;
  people(term: string, offset: number, limit: number): Promise<SearchPage>;
  /** Title ids whose words start with the term's words, best first. */
  autocomplete(term: string, limit: number): Promise<number[]>;
  /** A subquery of the ids of titles matching the term (null when the term has no words), for filters. */
  titleMatch(term: string): RawBuilder<number> | null;
}
