import type { BenchContext, LiveService } from '../context.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { cpuOverWindow } from '../service-cpu.ts';
import { rate } from './figures.ts';

/** S1's measurement on a running service (S1 on SQLite, part of S8 on PostgreSQL): its row, against the same-run baseline. */
export async function measureTitleGet(ctx: BenchContext, live: LiveService): Promise<BenchRow[]> {
  const baseline = await ctx.baselineRps();
  const paths = live.movieIds.map((id) => `/catalog/titles/movies/${id}?expand=synopsis,cast,directors`);
  const { result: r, cpuMs } = await cpuOverWindow(ctx.options.warmupMs, () => ctx.measure(live, ctx.load({ name: `S1 (${live.dialect})`, port: live.port, paths })));
  const ratio = r.rps / baseline.rps;
  const perRequestUs = (cpuMs * 1000) / r.requests;
  const database = live.dialect === 'postgres' ? '; PostgreSQL’s own processes not counted' : '';
  return [
    {
      scenario: 'S1', figure: `signed title GET, ${ctx.options.connections} connections, req/s (p99 ${r.p99.toFixed(1)} ms)`,
      value: rate(r.rps), baseline: rate(baseline.rps), ratio, target: '≥ 40% of baseline', met: ratio >= 0.4,
    },
    {
      scenario: 'S1', figure: `service CPU per signed title GET (the service’s process over the measured window${database}; baseline: the bare server’s CPU per request, same process, same client)`,
      value: `${Math.round(perRequestUs)} µs`, baseline: `${Math.round(baseline.cpuUs)} µs`, target: 'well under 100 µs (the issue’s aim)', met: perRequestUs < 100,
    },
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
