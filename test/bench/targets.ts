import type { BenchDialect } from './stores.ts';

/** What S1–S3 must reach on a store: the table (S8 holds PostgreSQL to its own row of it). */
export interface StoreTargets {
  /** S1: signed title GETs a second, as a share of the bare server's rate. */
  titleGetShare: number;
  /** S1: the service's CPU per signed title GET, µs. */
  titleGetCpuUs: number;
  /** S2: protected queue GETs a second, as a share of the bare server's rate. */
  queueGetShare: number;
  /** S3: queue moves a second, and their p99 in ms. */
  movesPerSecond: number;
  moveP99Ms: number;
}

export const TARGETS: Record<BenchDialect, StoreTargets> = {
  sqlite: { titleGetShare: 0.4, titleGetCpuUs: 80, queueGetShare: 0.15, movesPerSecond: 1000, moveP99Ms: 20 },
  postgres: { titleGetShare: 0.3, titleGetCpuUs: 200, queueGetShare: 0.1, movesPerSecond: 800, moveP99Ms: 50 },
};
