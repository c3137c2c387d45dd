import { catalogWords, draw } from '../catalog-terms.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { millis } from './figures.ts';
import { measureWithCpu } from './s1-title-get.ts';

/** S5: signed title search (`term`), one client, each whole title word asked once, at 100k titles (and at `--large N`). */
export const scenario: BenchScenario = {
  id: 'S5',
  title: 'title search, single client, random title words, each asked once',
  async run(ctx) {
    const rows: BenchRow[] = [];
    for (const size of [ctx.options.synthetic, ctx.options.largeSynthetic].filter((n) => n > 0)) {
      const live = await ctx.service(size);
      const terms = draw(await catalogWords(live.bench.db), ctx.options.terms, 100);
      const path = (term: string) => `/catalog/titles?term=${encodeURIComponent(term)}`;
      const { result: r, cpuUs } = await measureWithCpu(
        ctx,
        live,
        ctx.load({
          name: 'S5',
          port: live.port,
          connections: 1,
          once: true,
          paths: terms.measured.map(path),
          warmupPaths: terms.warmup.map(path),
        }),
      );
      const limit = size >= 1_000_000 ? 30 : 10;
      rows.push({
        scenario: 'S5',
        figure: `search p99 at ${live.bench.titles.toLocaleString('en-US')} titles (p50 ${millis(r.p50)}, ${Math.round(r.rps)} req/s, ${Math.round(cpuUs)} µs of service CPU a request; first page of 25, signed)`,
        value: millis(r.p99),
        target: `p99 ≤ ${limit} ms`,
        met: r.p99 <= limit,
        note: `${terms.measured.length} whole words drawn at random from the ${terms.pool.toLocaleString('en-US')} distinct words of the catalog’s titles, each asked once (none answered from the representation cache; title records may come from the service’s title cache, filled by earlier answers as in service; ${terms.warmup.length} others asked first, not measured)`,
      });
    }
    return rows;
  },
};
