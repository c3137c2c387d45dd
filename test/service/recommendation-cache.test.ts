import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSubscriber } from '../../service/data/demo/subscriber-account.ts';
import { cachedRecommend } from '../../service/store/recommend/recommendation-cache.ts';
import { findUserByLogin } from '../../service/store/subscriber/users.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';

/** Recommendations are kept per subscriber until that subscriber's ratings, queues or history change. */
describe.each(DATABASES)('kept recommendations on %s', (kind) => {
  let svc: TestService;
  let userId: string;
  const now = Math.floor(Date.now() / 1000);
  beforeAll(async () => {
    svc = await startTestService(kind);
    await ensureDemoSubscriber(svc.db, now);
    userId = (await findUserByLogin(svc.db, 'demo'))!.id;
  });
  afterAll(() => svc.close());

  it('answers a repeat from the kept list, and recomputes once a rating changes', async () => {
    const first = await cachedRecommend(svc.db, userId, now, 500);
    expect(first.length).toBeGreaterThan(0);
    expect(await cachedRecommend(svc.db, userId, now, 500)).toBe(first);
    const top = first[0]!.titleId;
    await svc.db.kysely
      .insertInto('ratings')
      .values({ user_id: userId, title_id: top, rating: 1, created: now, updated: now })
      .execute();
    const after = await cachedRecommend(svc.db, userId, now, 500);
    expect(after).not.toBe(first);
    expect(after.map((r) => r.titleId)).not.toContain(top);
  });

  it('recomputes when a queue changes version', async () => {
    await svc.db.kysely
      .insertInto('queues')
      .values({ user_id: userId, kind: 'disc', version: 1 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const before = await cachedRecommend(svc.db, userId, now, 500);
    expect(await cachedRecommend(svc.db, userId, now, 500)).toBe(before);
    await svc.db.kysely
      .updateTable('queues')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('user_id', '=', userId)
      .execute();
    expect(await cachedRecommend(svc.db, userId, now, 500)).not.toBe(before);
  });
});
