import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, RequestPacer } from '../../electron/core/transport/index.ts';
import { ServiceError } from '../../electron/core/types.ts';
import type { AppError } from '../../shared/models.ts';
import { createConsumer, setConsumerQuota } from '../../service/store/oauth/consumers.ts';
import { startLiveService, type LiveService } from '../helpers/live-service.ts';
import { movieIds } from '../helpers/catalog-picks.ts';

/** Never a quota error while browsing: the transport paces itself within the service's per-second limit. */
let svc: LiveService;

beforeAll(async () => {
  svc = await startLiveService();
});
afterAll(() => svc?.close());

describe('pacing against the real service', () => {
  it('30 concurrent title requests from a consumer allowed 3 a second all succeed, with no quota error', async () => {
    const consumer = await createConsumer(svc.db, { name: 'Slow app' });
    await setConsumerQuota(svc.db, consumer.key, 3, null);
    const statuses: number[] = [];
    const quotas: AppError[] = [];
    const t = createTransport({
      getContext: () => ({ baseUrl: svc.url, consumer: { key: consumer.key, secret: consumer.secret }, token: null }),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      },
      onQuota: (e) => quotas.push(e),
    });
    const ids = await movieIds(svc.db, 30);
    const answers = await Promise.all(
      ids.map((id) => t.request({ url: `/catalog/titles/movies/${id}`, level: 'signed' })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    expect(answers.every((a) => a.body.includes('<catalog_title>'))).toBe(true);
    expect(quotas).toEqual([]);
    expect(statuses.filter((s) => s === 403).length).toBeGreaterThan(0); // it did meet the limit, and waited each refusal out
  });

  it('a per-day refusal still surfaces, once, as kind "quota" with the time to wait', async () => {
    const consumer = await createConsumer(svc.db, { name: 'Daily app' });
    await setConsumerQuota(svc.db, consumer.key, null, 2);
    const quotas: AppError[] = [];
    const t = createTransport({
      getContext: () => ({ baseUrl: svc.url, consumer: { key: consumer.key, secret: consumer.secret }, token: null }),
      onQuota: (e) => quotas.push(e),
    });
    await t.request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed' });
    await t.request({ url: '/catalog/titles', query: { term: 'b' }, level: 'signed' });
    const error = await t.request({ url: '/catalog/titles', query: { term: 'c' }, level: 'signed' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).appError).toMatchObject({
      kind: 'quota',
      message: 'Over queries per day limit',
      retryAfter: expect.any(Number),
    });
    expect(quotas).toHaveLength(1);
  });
});

describe('the bucket', () => {
  /** A clock the test moves, and a sleep that moves it. */
  function clock() {
    let now = 0;
    const slept: number[] = [];
    return { now: () => now, sleep: (ms: number) => (slept.push(ms), (now += ms), Promise.resolve()), slept };
  }

  it('lets a burst of its rate through at once, then one request per 1/rate seconds', async () => {
    const c = clock();
    const pacer = new RequestPacer({ perSecond: 4, now: c.now, sleep: c.sleep });
    for (let i = 0; i < 4; i++) await pacer.take();
    expect(c.slept).toEqual([]);
    await pacer.take();
    await pacer.take();
    expect(c.slept).toEqual([250, 250]);
  });

  it('halves its rate on a refusal, not again for requests sent before, and makes everyone wait the Retry-After', async () => {
    const c = clock();
    const pacer = new RequestPacer({ perSecond: 8, now: c.now, sleep: c.sleep });
    const sentBefore = c.now();
    await c.sleep(10);
    pacer.refused(1, c.now());
    pacer.refused(1, sentBefore); // paced at the old rate
    expect(pacer.rate).toBe(4);
    await pacer.take();
    expect(c.now()).toBeGreaterThanOrEqual(1000);
    for (let i = 0; i < 1000; i++) pacer.accepted();
    expect(pacer.rate).toBe(8);
  });
});
