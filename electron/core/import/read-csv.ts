import type { ImportEntry, ImportFile, ImportSource } from '../../../shared/import-export.ts';
import { isBlankRow, parseCsv, type CsvRow } from '../../../shared/pure/csv.ts';
import { entry, mergeRepeats, ratingOutOf10, ratingOutOf5, yearIn } from './entries.ts';

/**
 * CSV lists: Letterboxd's exports (watchlist, watched, ratings, diary, a list), IMDb's (a list or
 * watchlist, ratings), and any CSV with a title column (Marquee's own export writes Letterboxd's
 * import columns: Title, Year, Rating, WatchedDate, imdbID). Which one is read from the header.
 */

const TITLE_COLUMNS = ['title', 'name', 'film', 'film title', 'movie', 'film name'];
/** Rows before the header a file may have (Letterboxd's list export has its list's own line first). */
const HEADER_SEARCH_ROWS = 10;

interface Header {
  /** Index of the header row. */
  at: number;
  columns: string[];
}

/** The file as a CSV list, or null when it has no header with a title column (then it is not one). */
export function readCsvList(text: string): ImportFile | null {
  const rows = parseCsv(text);
  const header = findHeader(rows);
  if (!header) return null;
  const col = (...names: string[]) => names.map((n) => header.columns.indexOf(n)).find((i) => i >= 0) ?? -1;
  const source = sourceOf(header.columns, rows);
  const titleAt = col(...(source.startsWith('imdb') ? ['title', 'original title'] : TITLE_COLUMNS));
  const yearAt = col('year', 'release year', 'release date');
  const typeAt = col('title type', 'type');
  const rating = ratingReader(header.columns, source);
  const skipped: string[] = [];
  const entries: ImportEntry[] = [];
  rows.slice(header.at + 1).forEach((row, i) => {
    if (isBlankRow(row)) return;
    const line = header.at + i + 2;
    const title = (row[titleAt] ?? '').trim();
    if (!title) return void skipped.push(`Row ${line} has no title.`);
    entries.push(entry({ line, title, year: yearIn(row[yearAt]), type: typeOf(row[typeAt]), rating: rating(row) }));
  });
  const merged = source === 'letterboxd-diary' ? mergeRepeats(entries) : entries;
  const hasRatings = merged.some((e) => e.rating !== null);
  const isList =
    !['letterboxd-ratings', 'letterboxd-diary', 'imdb-ratings'].includes(source) && !(source === 'csv' && hasRatings);
  return {
    source,
    label: LABELS[source],
    entries: merged.map((e) => ({ ...e, listed: isList })),
    skipped,
    kind: null,
    hasRatings,
    isList,
  };
}

function findHeader(rows: CsvRow[]): Header | null {
  const letterboxdList = /^letterboxd list export/i.test(rows[0]?.[0]?.trim() ?? '');
  // A Letterboxd list: the list's own header and line, a blank line, then the films' header.
  const from = letterboxdList ? rows.findIndex((r, i) => i > 0 && isBlankRow(r)) + 1 : 0;
  for (let at = Math.max(from, 0); at < Math.min(rows.length, from + HEADER_SEARCH_ROWS); at++) {
    const columns = rows[at]!.map((c) => c.trim().toLowerCase());
    if (columns.some((c) => TITLE_COLUMNS.includes(c))) return { at, columns };
  }
  return null;
}

function sourceOf(columns: string[], rows: CsvRow[]): ImportSource {
  const has = (name: string) => columns.includes(name);
  if (/^letterboxd list export/i.test(rows[0]?.[0]?.trim() ?? '')) return 'letterboxd-list';
  if (has('letterboxd uri')) {
    if (has('watched date')) return 'letterboxd-diary';
    if (has('rating')) return 'letterboxd-ratings';
    return 'letterboxd-watchlist';
  }
  if (has('const') && has('title')) return has('position') ? 'imdb-list' : 'imdb-ratings';
  return 'csv';
}

/** How a row's rating is read: out of 5 with halves (Letterboxd), out of 10 (IMDb, Rating10), or none. */
function ratingReader(columns: string[], source: ImportSource): (row: CsvRow) => ImportEntry['rating'] {
  if (source.startsWith('imdb')) {
    const at = columns.indexOf('your rating');
    return (row) => (at < 0 ? null : ratingOutOf10(row[at]));
  }
  const five = columns.indexOf('rating');
  const ten = columns.indexOf('rating10');
  return (row) => (five >= 0 ? ratingOutOf5(row[five]) : null) ?? (ten >= 0 ? ratingOutOf10(row[ten]) : null);
}

/** IMDb's title types (old and new spellings) → movie or series; anything else says nothing. */
function typeOf(field: string | undefined): ImportEntry['type'] {
  const t = (field ?? '').trim().toLowerCase();
  if (!t) return null;
  if (/series/.test(t)) return 'series';
  if (/movie|film|feature|video|short|special/.test(t)) return 'movie';
  return null;
}

const LABELS: Record<ImportSource, string> = {
  'letterboxd-watchlist': 'Letterboxd watchlist',
  'letterboxd-ratings': 'Letterboxd ratings',
  'letterboxd-diary': 'Letterboxd diary',
  'letterboxd-list': 'Letterboxd list',
  'imdb-list': 'IMDb list',
  'imdb-ratings': 'IMDb ratings',
  csv: 'CSV list',
  text: 'Plain text list',
  'queue-xml': 'Queue (XML)',
  'queue-atom': 'Queue feed (Atom)',
  'marquee-json': 'Marquee export',
};

export function sourceLabel(source: ImportSource): string {
  return LABELS[source];
}
