import { availableTitleIds } from '../../helpers/catalog-picks.ts';
import type { BenchScenario } from '../registry.ts';
import { queuesOf } from '../queue-writers.ts';
import { runWritersElsewhere } from '../queue-writers-process.ts';
import { millis, rate } from './figures.ts';

/** S3: moves with If-Match on 500-entry instant queues, one writer per queue, 20 queues. */
export const scenario: BenchScenario = {
  id: 'S3',
  title: 'queue moves with If-Match, 20 queues × 500 entries',
  async run(ctx) {
    const live = await ctx.service(0);
    const writers = await queuesOf(live, 20, 500);
    const titles = await availableTitleIds(live.bench.db, 'movie', 'instant', 500);
    const target = { port: live.port, consumer: { key: live.bench.consumer.key, secret: live.bench.consumer.secret } };
    const r = await runWritersElsewhere({ target, writers, titleIds: titles, warmupMs: ctx.options.warmupMs, durationMs: ctx.options.durationMs });
    const note = `statuses ${JSON.stringify(r.statuses)}; the 20 writers run in a process of their own`;
    return [
      { scenario: 'S3', figure: `queue moves/s (p50 ${millis(r.p50)}; writers’ process ${r.writerCpu.toFixed(2)} cores busy)`, value: rate(r.movesPerSecond), target: '≥ 1,000 moves/s', met: r.movesPerSecond >= 1000, note },
      { scenario: 'S3', figure: 'queue move p99', value: millis(r.p99), target: 'p99 ≤ 20 ms', met: r.p99 <= 20 },
    ];
  },
};
