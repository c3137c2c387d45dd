import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRentals } from '../../service/store/subscriber/history.ts';
import { call } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';
import { availableTitleIds } from '../helpers/catalog-picks.ts';

/** A disc at the subscriber's home: it cannot be queued again, and title states say so. */
describe.each(DATABASES)('a disc at home on %s', (kind) => {
  let svc: TestService;
  let user: TestSubscriber;
  let token: { key: string; secret: string };
  let discId: number;

  beforeAll(async () => {
    svc = await startTestService(kind);
    user = await newSubscriber(svc);
    token = user.token;
    const now = Math.floor(Date.now() / 1000);
    [discId] = (await availableTitleIds(svc.db, 'disc', 'DVD', 1)) as [number];
    await insertRentals(svc.db, user.uid, [
      {
        title_id: discId,
        format: 'DVD',
        shipped_date: now - 86400,
        returned_date: null,
        watched_date: null,
        viewed_time: null,
      },
    ]);
  });
  afterAll(() => svc.close());

  const ref = () => `${svc.baseUrl}/catalog/titles/discs/${discId}`;

  it('adding it to the disc queue is 400 sub 690 and changes nothing', async () => {
    const before = parseXml((await call(svc, `/users/${user.uid}/queues/disc`, { token })).body).queue.etag;
    const res = await call(svc, `/users/${user.uid}/queues/disc`, {
      method: 'POST',
      token,
      form: { title_ref: ref(), format: 'DVD' },
    });
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status).toMatchObject({
      status_code: '400',
      sub_code: '690',
      message: 'Title currently at home',
    });
    expect(parseXml((await call(svc, `/users/${user.uid}/queues/disc`, { token })).body).queue.etag).toBe(before);
  });

  it('title states show At Home on the disc item', async () => {
    const res = await call(svc, `/users/${user.uid}/title_states`, { token, query: { title_refs: ref() } });
    expect(res.statusCode).toBe(200);
    const disc = res.body.slice(res.body.lastIndexOf('<title_state_item>'));
    expect(disc).toContain('term="At Home"');
    expect(disc).not.toContain('term="Add"'); // adding it would be refused (690)
  });
});
