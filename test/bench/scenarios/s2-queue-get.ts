import { issueAccessToken } from '../../../service/store/oauth/tokens.ts';
import { createUser, findUserByLogin } from '../../../service/store/subscriber/users.ts';
import type { BenchContext, LiveService } from '../context.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { fillInstantQueue } from '../queue-fill.ts';
import { TARGETS } from '../targets.ts';
import { rate } from './figures.ts';
import { cpuRow, measureWithCpu } from './s1-title-get.ts';

const BENCH_LOGIN = 'bench-s2';

/**
 * S2's measurement on a running service (S2 on SQLite, part of S8 on PostgreSQL): a subscriber's
 * empty queue filled to 50, then read. Its own subscriber: the demo one starts with forty titles queued.
 */
export async function measureQueueGet(ctx: BenchContext, live: LiveService): Promise<BenchRow[]> {
  const baseline = await ctx.baselineRps();
  const { db, consumer } = live.bench;
  const user =
    (await findUserByLogin(db, BENCH_LOGIN)) ??
    (await createUser(db, {
      login: BENCH_LOGIN,
      password: 'bench-s2-password',
      firstName: 'Bench',
      lastName: 'Queue',
      acceptedTos: true,
    }));
  const token = await issueAccessToken(db, consumer.key, user.id);
  const credentials = { key: token.token, secret: token.secret };
  await fillInstantQueue(live, user.id, credentials, 50);
  const scenario = ctx.load({
    name: `S2 (${live.dialect})`,
    port: live.port,
    paths: [`/users/${user.id}/queues/instant`],
    token: credentials,
  });
  const { result: r, cpuUs } = await measureWithCpu(ctx, live, scenario);
  const ratio = r.rps / baseline.rps;
  const share = TARGETS[live.dialect].queueGetShare;
  return [
    {
      scenario: 'S2',
      figure: `protected queue GET (50 entries), req/s (p99 ${r.p99.toFixed(1)} ms; ${Math.round(cpuUs)} µs of service CPU a request; cached: the kept page re-sent after one read of the queue’s version)`,
      value: rate(r.rps),
      baseline: rate(baseline.rps),
      ratio,
      target: `≥ ${share * 100}% of baseline`,
      met: ratio >= share,
    },
    cpuRow('S2', 'protected queue GET', live, cpuUs, baseline.cpuUs, undefined),
  ];
}

/** S2: protected GET of a 50-entry instant queue. */
export const scenario: BenchScenario = {
  id: 'S2',
  title: 'protected GET of a 50-entry instant queue',
  async run(ctx) {
    return measureQueueGet(ctx, await ctx.service(0));
  },
};
