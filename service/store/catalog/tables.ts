/** The catalog's tables: what a load writes, a clear empties and a bulk load re-indexes. */
export const CATALOG_TABLES = [
  'titles',
  'title_genres',
  'availability',
  'credits',
  'people',
  'similars',
  'title_details',
] as const;
