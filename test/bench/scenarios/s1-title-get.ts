import type { BenchContext, LiveService } from '../context.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { windowProfiled } from '../profile.ts';
import { cpuOverWindow } from '../service-cpu.ts';
import type { Scenario } from '../scenarios.ts';
import { TARGETS } from '../targets.ts';
import { rate } from './figures.ts';

/**
 * A load row against the service and its CPU per request beside it: the service's process's CPU
 * over the measured window (it runs in the bench's process; the client in others), divided by the
 * requests answered. The baseline's is the bare server's, measured the same way with the same client.
 */
export async function measureWithCpu(ctx: BenchContext, live: LiveService, scenario: Scenario) {
  const profiler = windowProfiled(ctx.options.cpuProfDir, scenario.name, ctx.log);
  const { result, cpuMs } = await cpuOverWindow((onWindow) =>
    ctx.measure(live, scenario, (edge) => {
      onWindow(edge);
      profiler.onWindow(edge);
    }),
  );
  await profiler.done();
  return { result, cpuUs: (cpuMs * 1000) / result.requests };
}

/** "service CPU per signed title GET" row: the service's process over the window, beside the bare server's. */
export function cpuRow(
  scenario: string,
  what: string,
  live: LiveService,
  cpuUs: number,
  baselineUs: number,
  targetUs: number | undefined,
): BenchRow {
  const database = live.dialect === 'postgres' ? '; PostgreSQL’s own processes not counted' : '';
  return {
    scenario,
    figure: `service CPU per ${what} (the service’s process over the measured window${database}; baseline: the bare server’s, same client)`,
    value: `${Math.round(cpuUs)} µs`,
    baseline: `${Math.round(baselineUs)} µs`,
    target: targetUs === undefined ? 'recorded' : `≤ ${targetUs} µs`,
    met: targetUs === undefined ? undefined : cpuUs <= targetUs,
  };
}

/** S1's measurement on a running service (S1 on SQLite, part of S8 on PostgreSQL): throughput and CPU, against the same-run baseline. */
export async function measureTitleGet(ctx: BenchContext, live: LiveService): Promise<BenchRow[]> {
  const baseline = await ctx.baselineRps();
  const targets = TARGETS[live.dialect];
  const paths = live.movieIds.map((id) => `/catalog/titles/movies/${id}?expand=synopsis,cast,directors`);
  const { result: r, cpuUs } = await measureWithCpu(
    ctx,
    live,
    ctx.load({ name: `S1 (${live.dialect})`, port: live.port, paths }),
  );
  const ratio = r.rps / baseline.rps;
  return [
    {
      scenario: 'S1',
      figure: `signed title GET, ${ctx.options.connections} connections, req/s (p99 ${r.p99.toFixed(1)} ms; ${Math.round(cpuUs)} µs of service CPU a request; cached: ${paths.length} titles in rotation, each answered from the representation cache after its first GET)`,
      value: rate(r.rps),
      baseline: rate(baseline.rps),
      ratio,
      target: `≥ ${targets.titleGetShare * 100}% of baseline`,
      met: ratio >= targets.titleGetShare,
    },
    cpuRow('S1', 'signed title GET', live, cpuUs, baseline.cpuUs, targets.titleGetCpuUs),
  ];
}

/** S1: signed GET of a movie with three expansions, 50 connections, a fresh nonce per request. */
export const scenario: BenchScenario = {
  id: 'S1',
  title: 'signed title GET, expand=synopsis,cast,directors',
  async run(ctx) {
    return measureTitleGet(ctx, await ctx.service(0));
  },
};
