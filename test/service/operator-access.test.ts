import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { sampleValue } from '../helpers/prometheus-text.ts';
import { call } from '../helpers/request.ts';
import { openTestDb, startTestService, TEST_BASE, type TestService } from '../helpers/service.ts';

/** Who may read /metrics, and what each service instance counts: through Fastify's inject, which can name any remote address. */
const REMOTE = '203.0.113.7';
const TOKEN = 'a-metrics-token-of-some-length';

let opened: Awaited<ReturnType<typeof openTestDb>>;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  opened = await openTestDb('sqlite');
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(async () => {
  await opened.db.close();
  await opened.drop();
});

function service(metrics: Parameters<typeof buildServer>[0]['metrics'], trustProxy = false): FastifyInstance {
  const app = buildServer({ db: opened.db, baseUrl: TEST_BASE, metrics, trustProxy });
  apps.push(app);
  return app;
}

const metricsFrom = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({ url: '/metrics', remoteAddress, headers });

describe('/metrics access', () => {
  it('answers a caller on loopback, IPv4 or IPv6, without a token', async () => {
    const app = service({});
    expect((await metricsFrom(app, '127.0.0.1')).statusCode).toBe(200);
    expect((await metricsFrom(app, '::1')).statusCode).toBe(200);
  });

  it('refuses a caller beyond loopback when no token is configured, saying how to open it', async () => {
    const res = await metricsFrom(service({}), REMOTE);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('--metrics-token');
    expect(res.body).not.toContain('marquee_http_requests_total');
  });

  it('refuses a caller beyond loopback without the configured token, and with a wrong one', async () => {
    const app = service({ token: TOKEN });
    const none = await metricsFrom(app, REMOTE);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await metricsFrom(app, REMOTE, { authorization: `Bearer ${TOKEN}x` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain(TOKEN);
    expect((await metricsFrom(app, '127.0.0.1', { authorization: 'Bearer not-it' })).statusCode).toBe(401);
  });

  it('answers a caller beyond loopback that sends the configured token', async () => {
    const res = await metricsFrom(service({ token: TOKEN }), REMOTE, { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# TYPE marquee_http_requests_total counter');
  });

  it('behind a trusted proxy judges the client the proxy names, not the proxy on loopback', async () => {
    const app = service({}, true);
    const res = await app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': REMOTE },
    });
    expect(res.statusCode).toBe(403);
  });

  it('is not there when metrics are off; health and readiness still are', async () => {
    const app = service(false);
    expect((await metricsFrom(app, '127.0.0.1')).statusCode).toBe(404);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('what each service counts', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestService('sqlite'), startTestService('sqlite')]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });
  const text = async (svc: TestService) => (await svc.app.inject({ url: '/metrics' })).body;
  const searches = (body: string) =>
    sampleValue(body, 'marquee_http_requests_total', { route: '/catalog/titles', method: 'GET', status: '200' });

  it('keeps two services in one process apart', async () => {
    const [beforeA, beforeB] = [searches(await text(a)), searches(await text(b))];
    for (let i = 0; i < 3; i++)
      expect((await call(a, '/catalog/titles', { query: { term: 'the' } })).statusCode).toBe(200);
    expect(searches(await text(a)) - beforeA).toBe(3);
    expect(searches(await text(b)) - beforeB).toBe(0);
  });

  it('counts quota refusals by window, and a refused request under its status', async () => {
    const consumer = await createConsumer(a.db, { name: 'Slow App', perSecond: 1, perDay: 1000 });
    a.clock.now = Math.floor(Date.now() / 1000);
    try {
      expect((await call(a, '/catalog/titles', { consumer, query: { term: 'the' } })).statusCode).toBe(200);
      expect((await call(a, '/catalog/titles', { consumer, query: { term: 'alien' } })).statusCode).toBe(403);
    } finally {
      a.clock.now = undefined;
    }
    const body = await text(a);
    expect(sampleValue(body, 'marquee_quota_refusals_total', { window: 'second' })).toBe(1);
    expect(sampleValue(body, 'marquee_quota_refusals_total', { window: 'day' })).toBe(0);
    expect(sampleValue(body, 'marquee_http_requests_total', { route: '/catalog/titles', status: '403' })).toBe(1);
  });

  it('answers health and readiness unsigned, and counts them under their own routes', async () => {
    expect((await a.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await a.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await a.app.inject({ url: '/no/such/path' })).statusCode).toBe(404);
    const body = await text(a);
    expect(sampleValue(body, 'marquee_http_requests_total', { route: '/healthz', status: '200' })).toBeGreaterThan(0);
    expect(sampleValue(body, 'marquee_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    expect(body).not.toContain('/no/such/path');
  });
});
