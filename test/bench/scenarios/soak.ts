import { READ_MIX } from '../../soak/mix.ts';
import { runSoak, type SoakInterval } from '../../soak/soak.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { rate } from './figures.ts';

/** The issue's soak: 200 connections at full speed. */
const CONNECTIONS = 200;
/** Load worker processes sharing them (each row prints the cores they used: they must not be the limit). */
const CLIENTS = 2;
/** A node's memory target, throughout. */
const RSS_LIMIT_MB = 350;
/** Hot-path rows may hold at most this many seconds of requests: the ±300 s timestamp window. */
const WINDOW_SECONDS = 600;
/** p99 is steady when no minute's exceeds twice the median minute's (the lower one of an even count). */
const P99_SPREAD = 2;

/**
 * SOAK: `npm run bench -- --only SOAK --minutes N [--database postgres --nodes 2]` (`npm run soak`).
 * The issue's mixed signed load (title GET with three expansions, search, autocomplete, protected
 * queue GET) at full speed on service processes started by their launcher, a line a minute
 * (req/s, p99, errors, each node's RSS and heap, rows of every table the hot path writes), and
 * rows judging the whole run against the issue's targets.
 */
export const scenario: BenchScenario = {
  id: 'SOAK',
  title: 'soak: the mixed signed load at full speed, a line a minute',
  async run(ctx) {
    const { minutes, database, nodes } = ctx.options.soak;
    const run = await runSoak({
      database,
      nodes,
      connections: CONNECTIONS,
      clients: CLIENTS,
      intervalMs: 60_000,
      intervals: minutes,
      mix: READ_MIX,
      postgresServer: () => ctx.postgresServer(),
      log: ctx.log,
    });
    for (const sample of run.errorSamples) ctx.log(`  error: ${sample}`);
    const where = `${minutes} min, ${database}${nodes > 1 ? `, ${nodes} nodes` : ''}, ${CONNECTIONS} connections from ${CLIENTS} load processes`;
    return [...run.intervals.map((x, i) => minuteRow(i + 1, x)), ...verdicts(run.intervals, where)];
  },
};

function minuteRow(minute: number, x: SoakInterval): BenchRow {
  const memory = x.nodes
    .map(
      (n, i) =>
        `node ${i + 1}: RSS ${n.rssMb.toFixed(0)} MB (peak ${n.rssPeakMb.toFixed(0)}), heap ${n.heapUsedMb.toFixed(0)} MB`,
    )
    .join('; ');
  const rows = Object.entries(x.rows)
    .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
    .join(', ');
  return {
    scenario: 'SOAK',
    figure: `minute ${minute}: p99 ${x.p99.toFixed(1)} ms, errors ${x.errors}; ${memory}; rows: ${rows}; data ${x.dataMb.toFixed(0)} MB; load processes ${x.clientCores.toFixed(2)} cores`,
    value: rate(x.rps),
    target: 'recorded',
    met: undefined,
  };
}

function verdicts(intervals: SoakInterval[], where: string): BenchRow[] {
  const errors = intervals.reduce((n, x) => n + x.errors, 0);
  const requests = intervals.reduce((n, x) => n + x.requests, 0);
  const seconds = intervals.reduce((n, x) => n + x.seconds, 0);
  const peak = Math.max(...intervals.flatMap((x) => x.nodes.map((n) => n.rssPeakMb)));
  // The first minute fills the caches (every search term and prefix is new): steadiness is judged after it.
  const judged = intervals.length > 2 ? intervals.slice(1) : intervals;
  const p99s = judged.map((x) => x.p99).sort((a, b) => a - b);
  const median = p99s[Math.floor((p99s.length - 1) / 2)]!;
  const last = intervals.at(-1)!;
  const meanRate = requests / seconds;
  const bound = meanRate * WINDOW_SECONDS;
  const tables = Object.entries(last.rows)
    .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
    .join(', ');
  return [
    {
      scenario: 'SOAK',
      figure: `errors over ${requests.toLocaleString('en-US')} requests (${where})`,
      value: String(errors),
      target: '0',
      met: errors === 0,
    },
    {
      scenario: 'SOAK',
      figure: 'highest RSS of any node, sampled every second',
      value: `${peak.toFixed(0)} MB`,
      target: `≤ ${RSS_LIMIT_MB} MB per node throughout`,
      met: peak <= RSS_LIMIT_MB,
    },
    {
      scenario: 'SOAK',
      figure: `p99 minute to minute${judged === intervals ? '' : ' from minute 2 (the first fills the caches)'}: highest (lowest ${p99s[0]!.toFixed(1)} ms, median ${median.toFixed(1)} ms)`,
      value: `${p99s.at(-1)!.toFixed(1)} ms`,
      target: `steady: every minute ≤ ${P99_SPREAD}× the median minute`,
      met: p99s.at(-1)! <= P99_SPREAD * median,
    },
    {
      scenario: 'SOAK',
      figure: `hot-path rows at the end: ${tables} (mean rate ${rate(meanRate)} × ${WINDOW_SECONDS} s window = ${Math.round(bound).toLocaleString('en-US')})`,
      value: Math.max(...Object.values(last.rows)).toLocaleString('en-US'),
      target: 'every table ≤ rate × window',
      met: Object.values(last.rows).every((n) => n <= bound),
    },
  ];
}
