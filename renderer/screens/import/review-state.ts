import type {
  ImportCandidate,
  ImportEntry,
  ImportFile,
  ImportMatch,
  MatchStatus,
} from '../../../shared/import-export.ts';
import type { QueueKind, UserRating } from '../../../shared/models.ts';

/**
 * The review of an import as plain data: each entry with its match, the title the person chose
 * for it (a certain match is chosen for them; a doubtful one waits for them), what a hand search
 * added, and what confirming would send. Rows stay in the group the matcher put them in, so a
 * choice never makes a row jump away from the person.
 */
export interface ReviewRow {
  /** Index in the file's entries. */
  index: number;
  entry: ImportEntry;
  match: ImportMatch;
  /** The title chosen for this entry, or null (skipped, or not chosen yet). */
  chosen: string | null;
  /** Titles a hand search found for this row, offered with the matcher's own. */
  found: ImportCandidate[];
}

export interface ReviewOptions {
  kind: QueueKind;
  placement: 'top' | 'bottom';
  /** Put the listed entries in the queue. */
  addToQueue: boolean;
  /** Set the ratings the file carries. */
  setRatings: boolean;
}

export const GROUPS: ReadonlyArray<{ status: MatchStatus; heading: string }> = [
  { status: 'choice', heading: 'Needs a choice' },
  { status: 'missing', heading: 'Not found' },
  { status: 'matched', heading: 'Matched' },
];

export function initialRows(file: ImportFile, matches: readonly ImportMatch[]): ReviewRow[] {
  return file.entries.map((entry, index) => ({
    index,
    entry,
    match: matches[index]!,
    chosen: matches[index]!.ref,
    found: [],
  }));
}

export function initialOptions(file: ImportFile, preferred: QueueKind | undefined): ReviewOptions {
  // A queue file names its queue; otherwise the queue Import was opened from.
  return {
    kind: file.kind ?? preferred ?? 'instant',
    placement: 'bottom',
    addToQueue: file.isList,
    setRatings: file.hasRatings,
  };
}

/** Every title a row offers: the matcher's candidates, then what a hand search found. */
export function offered(row: ReviewRow): ImportCandidate[] {
  const seen = new Set(row.match.candidates.map((c) => c.ref));
  return [...row.match.candidates, ...row.found.filter((c) => !seen.has(c.ref))];
}

export function chosenTitle(row: ReviewRow): ImportCandidate | null {
  return row.chosen === null ? null : (offered(row).find((c) => c.ref === row.chosen) ?? null);
}

/** The titles confirming would put in the queue, in the file's order, each once. */
export function refsToQueue(rows: readonly ReviewRow[], options: ReviewOptions): string[] {
  if (!options.addToQueue) return [];
  return [...new Set(rows.filter((r) => r.entry.listed && r.chosen !== null).map((r) => r.chosen!))];
}

/** The ratings confirming would set: the file's rating of each chosen title (the last one given wins). */
export function ratingsToSet(
  rows: readonly ReviewRow[],
  options: ReviewOptions,
): Array<{ ref: string; rating: UserRating }> {
  if (!options.setRatings) return [];
  const byRef = new Map<string, UserRating>();
  for (const r of rows) if (r.chosen !== null && r.entry.rating !== null) byRef.set(r.chosen, r.entry.rating);
  return [...byRef].map(([ref, rating]) => ({ ref, rating }));
}

export function countByStatus(rows: readonly ReviewRow[]): Record<MatchStatus, number> {
  const counts: Record<MatchStatus, number> = { matched: 0, choice: 0, missing: 0 };
  for (const r of rows) counts[r.match.status]++;
  return counts;
}

/** How an entry reads in the file: “Godfather, The” (1972). */
export function entryWords(entry: ImportEntry): string {
  return `“${entry.title}”${entry.year !== null ? ` (${entry.year})` : ''}`;
}
