import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions } from '../helpers/request.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { unlimitedSubscriber } from '../helpers/subscriber.ts';
import { parseXml } from '../helpers/xml.ts';

/**
 * Each concern is an encapsulated Fastify plugin (server.ts), and a hook added inside one would not
 * reach its siblings: so one route of every plugin is checked for each cross-cutting rule the root
 * sets (URL limit, body parser and its limit, status bodies, ETag and 304).
 */
const ROUTES = [
  ['catalog', '/catalog/titles'],
  ['oauth', '/oauth/clock/time'],
  ['subscriber', '/users/UID'],
  ['queue', '/users/UID/queues/disc'],
] as const;

describe.each(ROUTES)('the root rules reach the %s plugin (%s)', (_concern, route) => {
  let svc: TestService;
  let path: string;
  let signedIn: Pick<CallOptions, 'consumer' | 'token'>;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
    const subscriber = await unlimitedSubscriber(svc.db, 'Plugins', {
      login: 'plugins',
      password: 'secret-words',
      firstName: 'Pat',
      lastName: 'Plug',
    });
    path = route.replace('UID', subscriber.userId);
    signedIn = { consumer: subscriber.consumer, token: subscriber.token };
  });
  afterAll(() => svc.close());

  const statusOf = (res: LightMyRequestResponse) => parseXml(res.body).status;

  it('a URL over 4096 bytes is 414 with a status body', async () => {
    const res = await call(svc, path, { query: { pad: 'x'.repeat(4200) } });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(statusOf(res)).toMatchObject({ status_code: '414' });
  });

  it('a form body over 1 MiB is 413 with a status body', async () => {
    const res = await call(svc, path, { method: 'POST', form: { pad: 'x'.repeat(1024 * 1024 + 1) } });
    expect(res.statusCode).toBe(413);
    expect(statusOf(res)).toMatchObject({ status_code: '413', message: 'Request body too large' });
  });

  it('an answer carries an ETag, and a GET sending it back is 304 with no body', async () => {
    const first = await call(svc, path, { ...signedIn, query: { term: 'dark' } });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await call(svc, path, { ...signedIn, query: { term: 'dark' }, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});
