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
  /** The person keeps the rating they gave this title rather than the file's. */
  keepRating: boolean;
}

export interface ReviewOptions {
  kind: QueueKind;
  placement: 'top' | 'bottom';
  /** Put the listed entries in the queue. */
  addToQueue: boolean;
  /** Set the ratings the file carries. */
  setRatings: boolean;
  /** Titles only the other queue offers (a disc-only film for the instant queue) go to that queue. */
  otherQueue: boolean;
}

export const OTHER_QUEUE: Record<QueueKind, QueueKind> = { instant: 'disc', disc: 'instant' };

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
    keepRating: false,
  }));
}

export function initialOptions(file: ImportFile, preferred: QueueKind | undefined): ReviewOptions {
  // A queue file names its queue; otherwise the queue Import was opened from.
  return {
    kind: file.kind ?? preferred ?? 'instant',
    placement: 'bottom',
    addToQueue: file.isList,
    setRatings: file.hasRatings,
    otherQueue: false,
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

/** Whether a row's title is offered only by the other queue (a disc-only film for the instant queue). */
export function onlyInOther(row: ReviewRow, kind: QueueKind): boolean {
  const placement = chosenTitle(row)?.placement;
  return placement !== undefined && placement[kind] === 'never' && placement[OTHER_QUEUE[kind]] !== 'never';
}

/** The titles confirming would put in the chosen queue, in the file's order, each once. */
export function refsToQueue(rows: readonly ReviewRow[], options: ReviewOptions): string[] {
  if (!options.addToQueue) return [];
  const going = rows.filter((r) => !(options.otherQueue && onlyInOther(r, options.kind)));
  return [...new Set(going.filter((r) => r.entry.listed && r.chosen !== null).map((r) => r.chosen!))];
}

/** The titles that go to the other queue instead (when the person asked for it), in order, each once. */
export function refsToOtherQueue(rows: readonly ReviewRow[], options: ReviewOptions): string[] {
  if (!options.addToQueue || !options.otherQueue) return [];
  const going = rows.filter((r) => r.entry.listed && r.chosen !== null && onlyInOther(r, options.kind));
  return [...new Set(going.map((r) => r.chosen!))];
}

/** The ratings confirming would set: the file's rating of each chosen title (the last one given wins). */
export function ratingsToSet(
  rows: readonly ReviewRow[],
  options: ReviewOptions,
): Array<{ ref: string; rating: UserRating }> {
  if (!options.setRatings) return [];
  const byRef = new Map<string, UserRating>();
  for (const r of rows)
    if (r.chosen !== null && r.entry.rating !== null && !r.keepRating) byRef.set(r.chosen, r.entry.rating);
  return [...byRef].map(([ref, rating]) => ({ ref, rating }));
}

/** The refs whose rating the review should know first: chosen titles the file rates. */
export function ratedRefs(rows: readonly ReviewRow[]): string[] {
  return [...new Set(rows.filter((r) => r.chosen !== null && r.entry.rating !== null).map((r) => r.chosen!))].sort();
}

/** The person's own rating a row's file rating would replace, or null (none, the same, or kept). */
export function ratingReplaced(row: ReviewRow, had: ReadonlyMap<string, UserRating | null>): UserRating | null {
  if (row.chosen === null || row.entry.rating === null) return null;
  const mine = had.get(row.chosen) ?? null;
  return mine !== null && mine !== row.entry.rating ? mine : null;
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

/** What confirming would do as the person has chosen so far: the review's counts follow every choice. */
export interface Tally {
  /** New titles for the chosen queue (not there yet, offered by it). */
  toAdd: number;
  alreadyQueued: number;
  /** Chosen titles its formats do not offer, left out (those the other queue offers included, unless sent there). */
  leftOut: number;
  /** Chosen titles only the other queue offers (sent there when `options.otherQueue`). */
  onlyInOther: number;
  ratings: number;
  /** Ratings that would replace one the person gave. */
  replacing: number;
  /** Entries nothing will be imported for. */
  skipped: number;
}

export function tally(
  rows: readonly ReviewRow[],
  options: ReviewOptions,
  queued: ReadonlySet<string>,
  had: ReadonlyMap<string, UserRating | null>,
): Tally {
  const rowOf = new Map(rows.filter((r) => r.chosen !== null).map((r) => [r.chosen!, r]));
  const fresh = refsToQueue(rows, options).filter((ref) => !queued.has(ref));
  const leftOut = fresh.filter((ref) => chosenTitle(rowOf.get(ref)!)?.placement[options.kind] === 'never').length;
  const listed = rows.filter((r) => r.entry.listed && onlyInOther(r, options.kind)).map((r) => r.chosen!);
  const ratings = ratingsToSet(rows, options);
  const replacing = ratings.filter((r) => {
    const mine = had.get(r.ref) ?? null;
    return mine !== null && mine !== r.rating;
  }).length;
  return {
    toAdd: fresh.length - leftOut,
    alreadyQueued: refsToQueue(rows, options).length - fresh.length,
    leftOut,
    onlyInOther: options.addToQueue ? new Set(listed).size : 0,
    ratings: ratings.length,
    replacing,
    skipped: rows.filter((r) => r.chosen === null).length,
  };
}
