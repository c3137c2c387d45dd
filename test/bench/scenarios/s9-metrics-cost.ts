import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../service/server.ts';
import type { BenchContext, LiveService } from '../context.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { rate } from './figures.ts';
import { measureWithCpu } from './s1-title-get.ts';

/** Windows per side, the sides alternating (off, on, on, off, …) so a drift in the machine's load falls on both. */
const ROUNDS = 5;
/** The bound: S1 with metrics on within 5% of S1 with them off. */
const TARGET_SHARE = 0.95;

/** A service on the bench's catalog, as `npm run service` builds it but for its metrics. */
async function serviceWith(
  ctx: BenchContext,
  live: LiveService,
  metrics: false | { process: true },
): Promise<LiveService> {
  const app: FastifyInstance = buildServer({ db: live.bench.db, baseUrl: 'http://127.0.0.1:8710', metrics });
  await app.listen({ host: '127.0.0.1', port: 0 });
  ctx.onCleanup(() => app.close());
  return { ...live, app, port: (app.server.address() as AddressInfo).port };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * S9: what the metrics cost on the hot path. S1's signed title GET against two services on the
 * same catalog in the same run, one with metrics (and the process's own, as `npm run service`
 * has them) and one with `--no-metrics`, in alternating windows; the medians compared.
 */
export const scenario: BenchScenario = {
  id: 'S9',
  title: 'S1 with metrics on and off',
  async run(ctx): Promise<BenchRow[]> {
    const live = await ctx.service(0);
    const sides = { on: await serviceWith(ctx, live, { process: true }), off: await serviceWith(ctx, live, false) };
    const paths = live.movieIds.map((id) => `/catalog/titles/movies/${id}?expand=synopsis,cast,directors`);
    const figures = {
      on: { rps: [] as number[], cpuUs: [] as number[] },
      off: { rps: [] as number[], cpuUs: [] as number[] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const side of order) {
        const service = sides[side];
        const scenarioName = `S9 metrics ${side}, window ${round + 1}`;
        const { result, cpuUs } = await measureWithCpu(
          ctx,
          service,
          ctx.load({ name: scenarioName, port: service.port, paths }),
        );
        figures[side].rps.push(result.rps);
        figures[side].cpuUs.push(cpuUs);
      }
    }
    const on = median(figures.on.rps);
    const off = median(figures.off.rps);
    const ratio = on / off;
    return [
      {
        scenario: 'S9',
        figure: `signed title GET (S1) with metrics on, req/s, against the same with --no-metrics (median of ${ROUNDS} alternating windows each; ${Math.round(median(figures.on.cpuUs))} vs ${Math.round(median(figures.off.cpuUs))} µs of service CPU a request)`,
        value: rate(on),
        baseline: rate(off),
        ratio,
        target: `≥ ${TARGET_SHARE * 100}% of metrics off`,
        met: ratio >= TARGET_SHARE,
      },
    ];
  },
};
