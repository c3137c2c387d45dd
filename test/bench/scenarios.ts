import type { LoadResult } from './load.ts';

/** One HTTP scenario as the load client runs it (sent over IPC, so plain data only). */
export interface Scenario {
  name: string;
  /** What the row measures, for the report. */
  note: string;
  port: number;
  /** Paths taken in rotation, one per request. */
  paths: string[];
  headers: Record<string, string>;
  /** Sign each request with OAuth (a fresh nonce and timestamp every time). */
  sign: boolean;
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
  | { type: 'ready'; signMicros: number }
  | { type: 'window'; edge: 'start' | 'end' }
  | { type: 'result'; result: ScenarioResult };

export interface ScenarioResult extends LoadResult {
  name: string;
  /** Client process CPU over the measured window, in cores (1 = one core busy). */
  clientCpu: number;
}

/** Words that each match 20–80 demo titles: a full first page of 25, like a real search box. */
export const SEARCH_TERMS = ['love', 'night', 'star', 'man', 'war', 'dead', 'day', 'king', 'time', 'life', 'dark', 'last'];

/** Every v1.0 expansion a single title has (spaces as %20, as the contract asks). */
export const TITLE_EXPANSIONS = ['synopsis', 'formats', 'screen formats', 'languages and audio', 'cast', 'directors', 'similars'];

export interface ScenarioInputs {
  baselinePort: number;
  servicePort: number;
  movieIds: number[];
  connections: number;
  warmupMs: number;
  durationMs: number;
}

/** The HTTP rows of the report, in order. */
export function httpScenarios(i: ScenarioInputs): Scenario[] {
  const common = { connections: i.connections, warmupMs: i.warmupMs, durationMs: i.durationMs, headers: {}, sign: true, conditional: false, expectStatus: 200 };
  const titles = i.movieIds.map((id) => `/catalog/titles/movies/${id}`);
  const searches = SEARCH_TERMS.map((t) => `/catalog/titles?term=${encodeURIComponent(t)}`);
  const expand = TITLE_EXPANSIONS.map((e) => encodeURIComponent(e)).join(',');
  return [
    { ...common, name: 'baseline: node:http, fixed 4 KB XML', note: 'bare node:http server in the same process, no routing, no auth', port: i.baselinePort, paths: ['/hello'], sign: false },
    { ...common, name: 'title GET (signed)', note: `/catalog/titles/movies/<id>, ${titles.length} ids in rotation`, port: i.servicePort, paths: titles },
    { ...common, name: 'title GET, If-None-Match → 304', note: 'same, with each title\'s current ETag', port: i.servicePort, paths: titles, conditional: true, expectStatus: 304 },
    { ...common, name: 'search', note: `/catalog/titles?term=<word>, ${SEARCH_TERMS.length} words, 25 titles a page`, port: i.servicePort, paths: searches },
    { ...common, name: 'search, gzip', note: 'same, Accept-Encoding: gzip', port: i.servicePort, paths: searches, headers: { 'accept-encoding': 'gzip' } },
    { ...common, name: 'expanded title', note: `title GET with expand=${TITLE_EXPANSIONS.join(',')}`, port: i.servicePort, paths: titles.map((p) => `${p}?expand=${expand}`) },
  ];
}
