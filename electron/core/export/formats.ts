import { EXPORT_DOCUMENT_VERSION, type ExportDocument } from '../../../shared/import-export.ts';
import type { QueueItem, Rating, RentalItem } from '../../../shared/models.ts';
import { csvLine } from '../../../shared/pure/csv.ts';

/**
 * The written forms of an export: CSV in Letterboxd's import columns (Title, Year, Rating,
 * WatchedDate, imdbID; Marquee has no IMDb ids, so that column stays empty), and Marquee's own
 * JSON document, versioned, with every field the models hold. The Atom feed is the service's own.
 */
export const LETTERBOXD_COLUMNS = ['Title', 'Year', 'Rating', 'WatchedDate', 'imdbID'] as const;

type Row = [title: string, year: number | null, rating: number | null, watched: string | null];

function csv(rows: Row[]): string {
  return (
    [
      csvLine(LETTERBOXD_COLUMNS),
      ...rows.map(([title, year, rating, watched]) => csvLine([title, year, rating, watched, ''])),
    ].join('\r\n') + '\r\n'
  );
}

/** A queue's titles in order, without ratings or dates (a watchlist to Letterboxd). */
export function queueCsv(items: readonly QueueItem[]): string {
  return csv(items.map((i) => [i.title, i.year, null, null]));
}

/** Rated titles with their 1–5 rating; "not interested" has no Letterboxd form and is left out. */
export function ratingsCsv(ratings: readonly Rating[]): { text: string; count: number } {
  const rows: Row[] = ratings
    .filter((r) => typeof r.userRating === 'number')
    .map((r) => [r.title.title, r.title.year, r.userRating as number, null]);
  return { text: csv(rows), count: rows.length };
}

/** What was watched or rented, with the day it was watched (else returned, else shipped). */
export function historyCsv(items: readonly RentalItem[]): string {
  return csv(items.map((i) => [i.title, i.year, null, isoDay(i.watchedDate ?? i.returnedDate ?? i.shippedDate)]));
}

export function exportDocument(
  service: string,
  parts: Omit<ExportDocument, 'format' | 'version' | 'exportedAt' | 'service'>,
  now: Date,
): string {
  const doc: ExportDocument = {
    format: 'marquee-export',
    version: EXPORT_DOCUMENT_VERSION,
    exportedAt: now.toISOString(),
    service,
    ...parts,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Unix seconds → "2026-03-12" (UTC), or null. */
export function isoDay(seconds: number | null): string | null {
  return seconds === null ? null : new Date(seconds * 1000).toISOString().slice(0, 10);
}
