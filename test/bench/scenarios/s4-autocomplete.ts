import { SEARCH_TERMS } from '../scenarios.ts';
import type { BenchScenario } from '../registry.ts';
import { millis } from './figures.ts';

/** Prefixes a user types: one to four letters of common words. */
const PREFIXES = SEARCH_TERMS.flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w]);

/** S4: autocomplete with one client at 100k titles (and at `--large N`, e.g. 1M, when asked). */
export const scenario: BenchScenario = {
  id: 'S4',
  title: 'autocomplete, single client',
  async run(ctx) {
    const sizes = [ctx.options.synthetic, ctx.options.largeSynthetic].filter((n) => n > 0);
    const rows = [];
    for (const size of sizes) {
      const live = await ctx.service(size);
      const paths = PREFIXES.map((p) => `/catalog/titles/autocomplete?term=${encodeURIComponent(p)}&oauth_consumer_key=${live.bench.consumer.key}`);
      const r = await ctx.measure(live, ctx.load({ name: 'S4', port: live.port, paths, sign: false, connections: 1 }));
      const limit = size >= 1_000_000 ? 15 : 5;
      rows.push({
        scenario: 'S4', figure: `autocomplete p99 at ${live.bench.titles.toLocaleString('en-US')} titles (p50 ${millis(r.p50)}, ${Math.round(r.rps)} req/s)`,
        value: millis(r.p99), target: `p99 ≤ ${limit} ms`, met: r.p99 <= limit,
      });
    }
    return rows;
  },
};
