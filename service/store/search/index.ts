import type { Db } from '../db.ts';
import type { Search } from './types.ts';
import { CatalogWords } from './catalog-words.ts';
import { sqliteSearch } from './sqlite.ts';
import { postgresSearch } from './postgres.ts';
import { autocompleteTitles, searchTitles } from './word-query.ts';
import { searchWords } from './words.ts';

export type { FullTextSearch, Search, SearchPage } from './types.ts';
export type { WordTableState } from './catalog-words.ts';

/** The dialect's full-text index, with titles answered from the catalog's word table (the same on both dialects). */
export function searchFor(db: Db): Search {
  const fullText = db.dialect === 'sqlite' ? sqliteSearch(db) : postgresSearch(db);
  const words = new CatalogWords(db);
  return {
    ...fullText,
    async titles(term, offset, limit) {
      const termWords = searchWords(term);
      if (termWords.length === 0) return { ids: [], total: 0 };
      return searchTitles(await words.table(), termWords, offset, limit);
    },
    async autocomplete(term, limit) {
      const termWords = searchWords(term);
      if (termWords.length === 0) return [];
      return autocompleteTitles(await words.table(), termWords, limit);
    },
    async prepare() {
      await words.table().catch(() => undefined);
    },
    wordTable: () => words.state(),
  };
}
