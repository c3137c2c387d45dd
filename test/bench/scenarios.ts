import type { LoadResult } from './load.ts';

/** One HTTP scenario as the load client runs it (sent over IPC, so plain data only). */
export interface Scenario {
  name: string;
  /** What the row measures, for the report. */
  note: string;
  port: number;
  /** Paths taken in rotation, one per request (or each once: `once`). */
  paths: string[];
  /**
   * Send each path exactly once (after each of `warmupPaths` once, not measured), instead of
   * rotating through them for a timed window: rows whose answers must not come from a cache
   * warmed by the row itself.
   */
  once?: boolean;
  warmupPaths?: string[] | undefined;
  headers: Record<string, string>;
  /** Sign each request with OAuth (a fresh nonce and timestamp every time). */
  sign: boolean;
  /** The consumer that signs (LiveService.client fills in its catalog's). */
  consumer?: Consumer;
  /** An access token to sign with too (protected resources). */
  token?: Consumer;
  /** Fetch each path once first and send its ETag in If-None-Match. */
  conditional: boolean;
  expectStatus: number;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

export interface Consumer {
  key: string;
  secret: string;
}

export type ToClient = { type: 'run'; scenario: Scenario } | { type: 'exit' };
export type FromClient =
  | { type: 'ready' }
  | { type: 'window'; edge: 'start' | 'end' }
  | { type: 'result'; result: ScenarioResult };

export interface ScenarioResult extends LoadResult {
  name: string;
  /** Client process CPU over the measured window, in cores (1 = one core busy). */
  clientCpu: number;
}

/** Words that each match 20–80 demo titles: a full first page of 25, like a real search box. */
export const SEARCH_TERMS = [
  'love',
  'night',
  'star',
  'man',
  'war',
  'dead',
  'day',
  'king',
  'time',
  'life',
  'dark',
  'last',
];
