import { afterAll, describe, expect, it } from 'vitest';
import { running } from '../helpers/service-process.ts';
import { runSoak } from '../soak/soak.ts';

const CONNECTIONS = 200;
/** The short version: three intervals of two seconds (`npm run soak` / the bench's SOAK run minutes). */
const INTERVALS = 3;
const INTERVAL_MS = 2000;
/** A service serving 200 connections stays well under this. */
const RSS_BOUND_MB = 768;

/** Issue 10, proof 6 (short), on the bench's soak: 200 concurrent connections of mixed reads and writes on a service process. */
describe('a short soak: 200 connections of mixed reads and writes', () => {
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
  });

  it('answers every request without an error, with memory bounded', async () => {
    const run = await runSoak({
      database: 'sqlite',
      nodes: 1,
      connections: CONNECTIONS,
      clients: 1,
      intervalMs: INTERVAL_MS,
      intervals: INTERVALS,
      mix: { title: 1, search: 1, autocomplete: 1, queue: 1, write: 1 },
      log: (line) => console.log(line),
    });
    expect(run.errorSamples).toEqual([]);
    expect(run.intervals).toHaveLength(INTERVALS);
    for (const interval of run.intervals) {
      expect(interval.errors).toBe(0);
      expect(interval.requests).toBeGreaterThan(0);
      for (const node of interval.nodes) expect(node.rssPeakMb).toBeLessThan(RSS_BOUND_MB);
    }
    const statuses = run.intervals.reduce<Record<string, number>>((all, x) => {
      for (const [code, n] of Object.entries(x.statuses)) all[code] = (all[code] ?? 0) + n;
      return all;
    }, {});
    // Writes were made (201 adds) and reads outnumber them (four kinds of read to one of write).
    expect(statuses['201']).toBeGreaterThan(0);
    expect(statuses['200']!).toBeGreaterThan(statuses['201']!);
    // The hot path wrote no row per request: the day's count only.
    expect(run.intervals.at(-1)!.rows.quota_counters).toBeLessThanOrEqual(1);
  }, 180_000);
});
