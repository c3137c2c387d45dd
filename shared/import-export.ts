import type { Queue, QueueItem, QueueKind, Rating, RentalItem, TitleSummary, UserRating } from './models.ts';

/**
 * Lists coming in and going out: what a file was read as, each entry's match to the catalog, what
 * an import changed (so it can be undone), and what an export wrote. Plain data between the core
 * (electron/core/import, electron/core/export) and the renderer.
 */

/** What a file was, read from its content (never its name). */
export type ImportSource =
  | 'letterboxd-watchlist'
  | 'letterboxd-ratings'
  | 'letterboxd-diary'
  | 'letterboxd-list'
  | 'imdb-list'
  | 'imdb-ratings'
  | 'csv'
  | 'text'
  | 'queue-xml'
  | 'queue-atom'
  | 'marquee-json';

/** One film or series a file names. */
export interface ImportEntry {
  /** 1-based position in the file (its line for text and CSV), for words like "line 12". */
  line: number;
  /** The name as the file writes it. */
  title: string;
  year: number | null;
  /** What the file says it is, when it says. */
  type: 'movie' | 'series' | null;
  /** The title's ref, when the file came from a service (its queue, its feed, Marquee's export). */
  ref: string | null;
  /** The person's rating the file carries (a ratings export, a diary), on the service's scale. */
  rating: UserRating | null;
  /** True for an entry of a list (a watchlist, a queue); false when it only carries a rating. */
  listed: boolean;
}

export interface ImportFile {
  source: ImportSource;
  /** The kind of file in words: "Letterboxd watchlist", "IMDb ratings", "Plain text list". */
  label: string;
  entries: ImportEntry[];
  /** Lines that could not be read, in words ("Line 7 has no title"); the rest is imported. */
  skipped: string[];
  /** The queue a service's queue file or Marquee's export names, else null. */
  kind: QueueKind | null;
  /** Whether any entry carries a rating (the review then offers to set them). */
  hasRatings: boolean;
  /** Whether the file is a list for a queue (a ratings export or a diary is not). */
  isList: boolean;
}

/** Where a title can go in a queue: the available part now, the saved part (it comes later), or not at all. */
export type Placement = 'now' | 'later' | 'never';

export interface ImportCandidate extends TitleSummary {
  placement: Record<QueueKind, Placement>;
}

/** matched: certain (same service ref, or name and year agree with no rival); choice: the person picks; missing: nothing close. */
export type MatchStatus = 'matched' | 'choice' | 'missing';

export interface ImportMatch {
  status: MatchStatus;
  /** The title a 'matched' entry is; null otherwise (a choice is the person's). */
  ref: string | null;
  /** Best first (at most a handful); a 'matched' entry's title is the first. */
  candidates: ImportCandidate[];
  /** Why, in a few words: "Same title and year", "2 films share this name", "Year 1976 in the catalog". */
  reason: string;
}

/** Matching, saving or rating under way (the queue's own change reports 'queue.progress'). */
export interface ImportProgress {
  phase: 'matching' | 'saving' | 'rating' | 'undoing';
  done: number;
  total: number;
  finished: boolean;
}

/** A title the import left out of the queue, and why. */
export interface ImportSkip {
  ref: string;
  title: string;
  reason: 'queued' | 'unavailable';
}

export interface RatingChange {
  ref: string;
  before: UserRating | null;
  after: UserRating;
}

/** What an import did: enough to say so and to undo it. */
export interface ImportOutcome {
  kind: QueueKind;
  /** The available order before the import and the order it asked for. */
  before: string[];
  after: string[];
  /** Titles put in the available part, in order; titles added to the saved part. */
  placed: string[];
  saved: string[];
  skipped: ImportSkip[];
  rated: RatingChange[];
  /** Stopped by the person before the end: what is listed was done, nothing more. */
  cancelled: boolean;
  queue: Queue;
}

export type ExportWhat = 'instant' | 'disc' | 'ratings' | 'history' | 'all';
export type ExportFormat = 'csv' | 'json' | 'atom';

/** A file to save: the Electron host saves it through a dialog, the web host's renderer downloads it. */
export interface ExportFile {
  fileName: string;
  mediaType: string;
  content: string;
  /** Titles (or ratings, or history items) written. */
  count: number;
}

export interface ExportResult {
  fileName: string;
  count: number;
  /** 'saved': written where the person chose; 'cancelled': they closed the dialog; 'download': the renderer saves `file`. */
  delivery: 'saved' | 'cancelled' | 'download';
  file?: ExportFile;
}

/** The version of Marquee's own export document this app writes (and the highest it reads). */
export const EXPORT_DOCUMENT_VERSION = 1;

/** Marquee's own export: every field the models hold, versioned. */
export interface ExportDocument {
  format: 'marquee-export';
  version: number;
  /** ISO 8601. */
  exportedAt: string;
  /** The service's base URL: refs in the document are its. */
  service: string;
  instant?: QueueItem[];
  disc?: QueueItem[];
  ratings?: Rating[];
  history?: RentalItem[];
}
