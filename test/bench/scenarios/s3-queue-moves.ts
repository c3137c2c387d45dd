import { availableTitleIds } from '../../helpers/catalog-picks.ts';
import type { BenchContext, LiveService } from '../context.ts';
import { profiled } from '../profile.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { queuesOf } from '../queue-writers.ts';
import { runWritersElsewhere } from '../queue-writers-process.ts';
import { TARGETS } from '../targets.ts';
import { millis, rate } from './figures.ts';

/** S3's measurement on a running service (S3 on SQLite, part of S8 on PostgreSQL): 20 writers, each moving entries of its own 500-entry queue. */
export async function measureQueueMoves(ctx: BenchContext, live: LiveService): Promise<BenchRow[]> {
  const writers = await queuesOf(live, 20, 500);
  const titles = await availableTitleIds(live.bench.db, 'movie', 'instant', 500);
  const target = { port: live.port, consumer: { key: live.bench.consumer.key, secret: live.bench.consumer.secret } };
  const job = { target, writers, titleIds: titles, warmupMs: ctx.options.warmupMs, durationMs: ctx.options.durationMs };
  const label = live.dialect === 'sqlite' ? 'S3' : `S3-${live.dialect}`;
  const r = await profiled(ctx.options.cpuProfDir, label, ctx.log, () => runWritersElsewhere(job), job.warmupMs);
  const { movesPerSecond, moveP99Ms } = TARGETS[live.dialect];
  const note = `statuses ${JSON.stringify(r.statuses)}; the 20 writers run in a process of their own`;
  return [
    {
      scenario: 'S3',
      figure: `queue moves/s (p50 ${millis(r.p50)}; writers’ process ${r.writerCpu.toFixed(2)} cores busy)`,
      value: rate(r.movesPerSecond),
      target: `≥ ${movesPerSecond.toLocaleString('en-US')} moves/s`,
      met: r.movesPerSecond >= movesPerSecond,
      note,
    },
    {
      scenario: 'S3',
      figure: 'queue move p99',
      value: millis(r.p99),
      target: `p99 ≤ ${moveP99Ms} ms`,
      met: r.p99 <= moveP99Ms,
    },
  ];
}

/** S3: moves with If-Match on 500-entry instant queues, one writer per queue, 20 queues. */
export const scenario: BenchScenario = {
  id: 'S3',
  title: 'queue moves with If-Match, 20 queues × 500 entries',
  async run(ctx) {
    return measureQueueMoves(ctx, await ctx.service(0));
  },
};
