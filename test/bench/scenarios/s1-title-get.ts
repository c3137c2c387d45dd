import type { BenchScenario } from '../registry.ts';
import { rate } from './figures.ts';

/** S1: signed GET of a movie with three expansions, 50 connections, a fresh nonce per request. */
export const scenario: BenchScenario = {
  id: 'S1',
  title: 'signed title GET, expand=synopsis,cast,directors',
  async run(ctx) {
    const live = await ctx.service(0);
    const baseline = await ctx.baselineRps();
    const paths = live.movieIds.map((id) => `/catalog/titles/movies/${id}?expand=synopsis,cast,directors`);
    const r = await ctx.measure(live, ctx.load({ name: 'S1', port: live.port, paths }));
    const ratio = r.rps / baseline.rps;
    return [{
      scenario: 'S1', figure: `signed title GET, ${ctx.options.connections} connections, req/s (p99 ${r.p99.toFixed(1)} ms)`,
      value: rate(r.rps), baseline: rate(baseline.rps), ratio, target: '≥ 40% of baseline', met: ratio >= 0.4,
    }];
  },
};
