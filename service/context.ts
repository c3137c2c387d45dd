import type { Db } from './store/db.ts';
import type { Search } from './store/search/index.ts';

/** What every resource needs from the running service. */
export interface ServiceContext {
  db: Db;
  search: Search;
  /** Public base URL, no trailing slash: ids and links are built from it. */
  baseUrl: string;
  /** Unix seconds; injectable so tests can move the clock. */
  now: () => number;
}
