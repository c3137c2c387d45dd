import { catalogWords, draw, prefixesOf } from '../catalog-terms.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { millis } from './figures.ts';
import { measureWithCpu } from './s1-title-get.ts';

/** S4: autocomplete, one client, each prefix asked once, at 100k titles (and at `--large N`, e.g. 1M). */
export const scenario: BenchScenario = {
  id: 'S4',
  title: 'autocomplete, single client, random prefixes of catalog words, each asked once',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const size of [ctx.options.synthetic, ctx.options.largeSynthetic].filter((n) => n > 0)) {
      const live = await ctx.service(size);
      const terms = draw(prefixesOf(await catalogWords(live.bench.db)), ctx.options.terms, 200);
      const path = (p: string) =>
        `/catalog/titles/autocomplete?term=${encodeURIComponent(p)}&oauth_consumer_key=${live.bench.consumer.key}`;
      const { result: r, cpuUs } = await measureWithCpu(
        ctx,
        live,
        ctx.load({
          name: 'S4',
          port: live.port,
          sign: false,
          connections: 1,
          once: true,
          paths: terms.measured.map(path),
          warmupPaths: terms.warmup.map(path),
        }),
      );
      const limit = size >= 1_000_000 ? 15 : 5;
      rows.push({
        scenario: 'S4',
        figure: `autocomplete p99 at ${live.bench.titles.toLocaleString('en-US')} titles (p50 ${millis(r.p50)}, ${Math.round(r.rps)} req/s, ${Math.round(cpuUs)} µs of service CPU a request)`,
        value: millis(r.p99),
        target: `p99 ≤ ${limit} ms`,
        met: r.p99 <= limit,
        note: `${terms.measured.length} prefixes of 2–4 letters drawn at random from the ${terms.pool.toLocaleString('en-US')} the catalog’s title words begin with, each asked once (none answered from the representation cache; title records may come from the service’s title cache, filled by earlier answers as in service; ${terms.warmup.length} others asked first, not measured)`,
      });
    }
    return rows;
  },
};
