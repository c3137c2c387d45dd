import { SEARCH_TERMS } from '../scenarios.ts';
import type { BenchScenario } from '../registry.ts';
import { millis } from './figures.ts';

/** S5: signed title search (`term`) with one client at 100k titles. */
export const scenario: BenchScenario = {
  id: 'S5',
  title: 'title search, single client',
  async run(ctx) {
    const live = await ctx.service(ctx.options.synthetic);
    // Single words and word + next word's initial (prefix search): 24 distinct searches in rotation.
    const paths = SEARCH_TERMS.map((t, i) => `/catalog/titles?term=${encodeURIComponent(`${t} ${SEARCH_TERMS[(i + 1) % SEARCH_TERMS.length]!.slice(0, 1)}`)}`);
    const r = await ctx.measure(live, ctx.load({ name: 'S5', port: live.port, paths: [...paths, ...SEARCH_TERMS.map((t) => `/catalog/titles?term=${t}`)], connections: 1 }));
    return [{
      scenario: 'S5', figure: `search p99 at ${live.bench.titles.toLocaleString('en-US')} titles (p50 ${millis(r.p50)}, ${Math.round(r.rps)} req/s; repeats answered from the representation cache)`,
      value: millis(r.p99), target: 'p99 ≤ 10 ms', met: r.p99 <= 10,
    }];
  },
};
