/** The unit every catalog generator yields: rows for each catalog table, loaded in any order. */
import type {
  AvailabilityTable,
  CreditsTable,
  PeopleTable,
  SimilarsTable,
  TitleDetailsTable,
  TitleGenresTable,
  TitlesTable,
} from '../store/schema.ts';

/**
 * Rows may reference ids from earlier or later batches (the loader skips FK checks); once all are
 * loaded every reference resolves, and each title id and person id appears exactly once overall.
 */
export interface CatalogBatch {
  titles: TitlesTable[];
  genres: TitleGenresTable[];
  availability: AvailabilityTable[];
  credits: CreditsTable[];
  people: PeopleTable[];
  similars: SimilarsTable[];
  /** exactly one per title in `titles` */
  details: TitleDetailsTable[];
}

export function emptyBatch(): CatalogBatch {
  return { titles: [], genres: [], availability: [], credits: [], people: [], similars: [], details: [] };
}

/** Appends b's rows to a (used to group small pieces into load-sized batches). */
export function appendBatch(a: CatalogBatch, b: CatalogBatch): void {
  for (const key of Object.keys(a) as (keyof CatalogBatch)[]) {
    const dst = a[key] as unknown[];
    for (const row of b[key]) dst.push(row);
  }
}
