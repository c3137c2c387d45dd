import type { Credentials } from '../helpers/oauth-client.ts';

/** Requests of the soak, by kind: weights, any scale. */
export interface Mix {
  /** Signed GET of a movie with three expansions. */
  title: number;
  /** Signed search for a word of the catalog's titles. */
  search: number;
  /** Autocomplete (consumer key only) for a 2–4-letter prefix of such a word. */
  autocomplete: number;
  /** Protected GET of the subscriber's instant queue (50 entries). */
  queue: number;
  /** Protected POST adding the connection's own title to that queue, or removing it. */
  write: number;
}

/** The mixed signed load: the reads a browsing app makes. */
export const READ_MIX: Mix = { title: 1, search: 1, autocomplete: 1, queue: 1, write: 0 };

/** What a load worker is told (over IPC: plain data). */
export interface WorkerConfig {
  /** Loopback ports of the service nodes; connection i goes to node i mod n. */
  ports: number[];
  connections: number;
  /** Offset of this worker's first connection among all (what picks subscribers and titles). */
  firstConnection: number;
  consumer: Credentials;
  subscribers: Array<{ id: string; token: Credentials }>;
  /** Movie ids to read. */
  titles: number[];
  /** One per connection (by global index): the title its writes add and remove. */
  writeTitles: number[];
  words: string[];
  prefixes: string[];
  mix: Mix;
}

/** What a worker reports when asked: counts since its last report. */
export interface WorkerReport {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  histogram: Record<number, number>;
  /** A few failed requests, for the log. */
  samples: string[];
  /** CPU the worker used since its last report, in seconds. */
  cpuSeconds: number;
}

export type ToWorker = { type: 'start'; config: WorkerConfig } | { type: 'report' } | { type: 'stop' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'report'; report: WorkerReport }
  | { type: 'stopped'; report: WorkerReport };
