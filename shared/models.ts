/**
 * The app's view of the service: plain data the main process maps from XML and hands to the
 * renderer. Refs are the service's opaque URLs (CONTRACT.md §1); never split or pattern-match them.
 */
export type TitleType = 'movie' | 'series' | 'season' | 'program' | 'disc';
export type QueueKind = 'instant' | 'disc';
export type QueueView = 'all' | 'available' | 'saved';

export interface BoxArt {
  small: string;
  medium: string;
  large: string;
}

/** A link to a title or person by its ref, with the name to show. */
export interface Ref {
  ref: string;
  name: string;
}

/** What every list of titles shows. */
export interface TitleSummary {
  ref: string;
  type: TitleType;
  title: string;
  shortTitle: string;
  year: number | null;
  runtimeSeconds: number | null;
  averageRating: number | null;
  boxArt: BoxArt;
  genres: string[];
  /** MPAA or TV rating. */
  maturity: string | null;
  /** Formats the title is offered in: instant, DVD, Blu-ray. */
  formats: string[];
}

export interface Availability {
  format: string;
  /** Unix seconds. */
  from: number;
  until: number | null;
}

export interface ScreenFormat {
  format: string;
  screenFormat: string;
}

export interface LanguageAudio {
  format: string;
  language: string;
  audio: string[];
}

/** An award the title won or was nominated for (v1.5 `awards` expansion). */
export interface Award {
  won: boolean;
  year: number | null;
  name: string;
}

/** One title with everything one expanded request returns. */
export interface TitleDetail extends TitleSummary {
  /** HTML from the service (may hold person links); the renderer sanitises before showing. */
  synopsis: string;
  availability: Availability[];
  screenFormats: ScreenFormat[];
  languages: LanguageAudio[];
  cast: Ref[];
  directors: Ref[];
  /**
   * Titles like this one, by name: the title's own `similars` expansion (links only, no box art),
   * the first 25. `catalog.similars` fetches them with their box art from `similarsRef`.
   */
  similars: Ref[];
  /** The title's `similars` list (a paged `catalog_titles` with box art); null when it links none. */
  similarsRef: string | null;
  seasons: Ref[];
  episodes: Ref[];
  discs: Ref[];
  series: Ref | null;
  season: Ref | null;
  /** By year (empty when the title has none; absent from services without the v1.5 expansion). */
  awards?: Award[];
}

export interface Person {
  ref: string;
  name: string;
  bio: string;
  /** The person's titles, newest first, with their box art (the first 100 of the filmography). */
  filmography: TitleSummary[];
}

export interface Page<T> {
  items: T[];
  total: number;
  start: number;
  perPage: number;
}

/**
 * A queued edit the service refused: kept in the outbox (not sent again) until the person retries
 * or discards it. `edit` names it ("Move “Alien” to position 3"), `reason` says why, in words.
 */
export interface RefusedEdit {
  id: string;
  kind: QueueKind;
  edit: string;
  reason: string;
  /** When it was refused (epoch ms). */
  at: number;
}

/** A bulk queue change (queue.replace) under way; `finished` on the last event. */
export interface QueueProgress {
  kind: QueueKind;
  done: number;
  total: number;
  /** 'replace': one atomic PUT; 'moves': the sequence-of-moves fallback (cancellable). */
  method: 'replace' | 'moves';
  finished: boolean;
}

export interface Category {
  scheme: string;
  term: string;
  label: string;
}

export interface User {
  id: string;
  firstName: string;
  lastName: string;
  nickname: string;
  canInstantWatch: boolean;
  preferredFormats: string[];
}

export interface QueueItem extends TitleSummary {
  /** The entry's own URL (changes with its position). */
  itemRef: string;
  /** 1-based; null for a saved (not yet released) title. */
  position: number | null;
  updated: number;
  /** `available now`, `saved`, `awaiting release`, `available until …`. */
  availability: string;
  format: string;
}

export interface Queue {
  kind: QueueKind;
  view: QueueView;
  etag: string;
  total: number;
  items: QueueItem[];
  /** Edits made offline (or still being sent) that this view already shows. */
  pendingEdits?: number;
}

export type UserRating = 1 | 2 | 3 | 4 | 5 | 'not_interested';

export interface Rating {
  title: TitleSummary;
  userRating: UserRating | null;
  predicted: number | null;
}

export interface Recommendation extends TitleSummary {
  predicted: number;
}

export interface RentalItem extends TitleSummary {
  format: string;
  watchedDate: number | null;
  shippedDate: number | null;
  returnedDate: number | null;
}

export interface TitleState {
  ref: string;
  /** States per queue: Add, Play, In Queue, Saved, At Home. */
  instant: string[];
  disc: string[];
}

/** A service the app talks to. The default profile is the embedded service. */
export interface ServiceProfile {
  id: string;
  label: string;
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
}

/** A sign-in under way: the service's page to open (shown as a link when no browser opened). */
export interface SignInPending {
  loginUrl: string;
  /** 'oob': the page will show a PIN to type into the app. */
  mode: 'loopback' | 'oob';
  browserOpened: boolean;
}

export interface AuthStatus {
  signedIn: boolean;
  profileId: string;
  /**
   * Whose data this is, `${profileId}:${userId}` (null signed out): known even while the service
   * cannot say who `user` is. Everything kept per person is keyed by it.
   */
  account: string | null;
  user: User | null;
  /** Set while a sign-in waits for the subscriber (auth.signIn has not resolved yet). */
  pending: SignInPending | null;
  /** False when the platform offers no real encryption for stored tokens (warn the user). */
  secureStorage: boolean;
}

/** Every failure the app reports, as a value (Electron keeps only a thrown error's message). */
export type ErrorKind = 'conflict' | 'quota' | 'offline' | 'auth' | 'not_found' | 'invalid' | 'server';

export interface AppError {
  kind: ErrorKind;
  message: string;
  status?: number;
  subCode?: number;
  /** Seconds to wait (quota). */
  retryAfter?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
