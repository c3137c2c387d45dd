import type { Db } from '../db.ts';
import type { Search } from './types.ts';
import { sqliteSearch } from './sqlite.ts';
import { postgresSearch } from './postgres.ts';

export type { Search, SearchPage } from './types.ts';

/** The dialect's search. */
export function searchFor(db: Db): Search {
  return db.dialect === 'sqlite' ? sqliteSearch(db) : postgresSearch(db);
}
