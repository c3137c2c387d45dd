import type { BenchRow, BenchScenario } from '../registry.ts';
import { measureTitleGet } from './s1-title-get.ts';
import { measureQueueGet } from './s2-queue-get.ts';
import { measureQueueMoves } from './s3-queue-moves.ts';

/** The issue's targets for S1–S3 on PostgreSQL (issue 19's table, row S8). */
const S8_TARGETS = { titleRatio: 0.25, titleCpuUs: 200, queueRatio: 0.1, movesPerSecond: 800, moveP99Ms: 50 };

/** The number a row's value shows ("1,603/s", "390 µs", "126.87 ms"). */
function numberIn(value: string): number {
  return Number.parseFloat(value.replace(/,/g, ''));
}

/**
 * A row of S1–S3 measured on PostgreSQL, judged by S8's own target: what it measures is told by
 * its scenario and unit (a rate with a same-run ratio, a CPU time in µs, a rate of moves, a p99 in ms).
 */
function asS8(row: BenchRow): BenchRow {
  const figure = `${row.scenario} on PostgreSQL: ${row.figure}`;
  const n = numberIn(row.value);
  const judged = (target: string, met: boolean): BenchRow => ({ ...row, scenario: 'S8', figure, target, met });
  if (row.ratio !== undefined && row.scenario === 'S1') return judged(`≥ ${S8_TARGETS.titleRatio * 100}% of baseline`, row.ratio >= S8_TARGETS.titleRatio);
  if (row.ratio !== undefined && row.scenario === 'S2') return judged(`≥ ${S8_TARGETS.queueRatio * 100}% of baseline`, row.ratio >= S8_TARGETS.queueRatio);
  if (row.scenario === 'S1' && row.value.endsWith('µs')) return judged(`≤ ${S8_TARGETS.titleCpuUs} µs`, n <= S8_TARGETS.titleCpuUs);
  if (row.scenario === 'S3' && row.value.endsWith('/s')) return judged(`≥ ${S8_TARGETS.movesPerSecond} moves/s`, n >= S8_TARGETS.movesPerSecond);
  if (row.scenario === 'S3' && row.value.endsWith('ms')) return judged(`p99 ≤ ${S8_TARGETS.moveP99Ms} ms`, n <= S8_TARGETS.moveP99Ms);
  return { ...row, scenario: 'S8', figure, target: 'recorded', met: undefined };
}

/**
 * S8: S1, S2 and S3 on an embedded PostgreSQL server (the demo catalog loaded into a fresh
 * database, the service on it), measured by the same functions as on SQLite, same load windows,
 * judged by the PostgreSQL targets.
 */
export const scenario: BenchScenario = {
  id: 'S8',
  title: 'S1–S3 on embedded PostgreSQL',
  async run(ctx) {
    const live = await ctx.service(0, 'postgres');
    const rows = [
      ...(await measureTitleGet(ctx, live)),
      ...(await measureQueueGet(ctx, live)),
      ...(await measureQueueMoves(ctx, live)),
    ];
    return rows.map(asS8);
  },
};
