import { urlOf } from '../helpers/fetch-input.ts';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryFileName } from '../../electron/core/transport/etag-cache.ts';
import {
  cacheKeyOf,
  createTransport,
  isAbortError,
  openEtagCache,
  type EtagCacheStore,
  type TransportOptions,
} from '../../electron/core/transport/index.ts';
import { normalizeUrl } from '../../electron/core/transport/signer.ts';
import { ServiceError, type ServiceRequest, type SigningContext } from '../../electron/core/types.ts';
import type { AppError } from '../../shared/models.ts';
import { createConsumer, setConsumerQuota } from '../../service/store/oauth/consumers.ts';
import { startLiveService, subscriberToken, type LiveService } from '../helpers/live-service.ts';
import { firstMovieId } from '../helpers/catalog-picks.ts';

interface Recorded {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
}

/** A fetch that records what went out and what came back (status and headers). */
function recordingFetch(log: Recorded[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const requestHeaders: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (requestHeaders[k] = v));
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (responseHeaders[k] = v));
    log.push({
      method: init?.method ?? 'GET',
      url: urlOf(input),
      requestHeaders,
      status: res.status,
      responseHeaders,
    });
    return res;
  };
}

type Decision = 'pass' | 'destroy' | 'hang' | number;

/**
 * A tiny loopback proxy in front of the real service: per request it passes through (Host kept,
 * so the service verifies the signature the client made for the proxy's URL), drops the
 * connection, never answers, or answers with a bare status.
 */
async function startProxy(target: string, decide: (req: IncomingMessage, n: number) => Decision) {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    const decision = decide(req, seen.length);
    if (decision === 'destroy') return void req.socket.destroy();
    if (decision === 'hang') return;
    if (typeof decision === 'number') {
      res.writeHead(decision, { 'content-type': 'text/html' });
      return void res.end(`<html>proxy says ${decision}</html>`);
    }
    const t = new URL(target);
    const upstream = httpRequest(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('transport against the live service', () => {
  let svc: LiveService;
  let token: { key: string; secret: string };
  let movieId: number;
  let dir: string;
  let store: EtagCacheStore;

  beforeAll(async () => {
    svc = await startLiveService();
    token = await subscriberToken(svc);
    movieId = await firstMovieId(svc.db);
    dir = mkdtempSync(join(tmpdir(), 'marquee-transport-'));
    store = openEtagCache({ dir });
  });
  afterAll(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    svc.clock.now = undefined;
  });

  const context = (overrides: Partial<SigningContext> = {}): SigningContext => ({
    baseUrl: svc.url,
    consumer: { key: svc.consumer.key, secret: svc.consumer.secret },
    token,
    ...overrides,
  });

  function transport(log: Recorded[], options: Partial<TransportOptions> = {}, ctx: Partial<SigningContext> = {}) {
    return createTransport({
      getContext: () => context(ctx),
      cache: store.forUser(`default:${svc.subscriber.id}`),
      fetch: recordingFetch(log),
      ...options,
    });
  }

  async function failure(promise: Promise<unknown>): Promise<AppError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ServiceError) return error.appError;
      throw error;
    }
    throw new Error('expected a ServiceError');
  }

  it('signs at each level: key (consumer key only, in the query), signed, protected', async () => {
    const log: Recorded[] = [];
    const t = transport(log);
    const key = await t.request({
      url: '/catalog/titles/autocomplete',
      query: { term: 'the' },
      level: 'key',
      cache: false,
    });
    expect(key.status).toBe(200);
    expect(log[0]!.url).toMatch(/\?term=the&oauth_consumer_key=[^&]+$/);
    expect(log[0]!.requestHeaders.authorization).toBeUndefined();

    const signed = await t.request({
      url: '/catalog/titles',
      query: { term: 'the dark & stormy' },
      level: 'signed',
      cache: false,
    });
    expect(signed.status).toBe(200);
    expect(log[1]!.requestHeaders.authorization).toMatch(/^OAuth /);
    expect(log[1]!.requestHeaders.authorization).not.toContain('oauth_token');

    const prot = await t.request({ url: `${svc.url}/users/current`, level: 'protected', cache: false });
    expect(prot.status).toBe(200);
    expect(prot.body).toContain(`/users/${svc.subscriber.id}`);
    expect(log[2]!.requestHeaders.authorization).toContain(`oauth_token="${token.key}"`);
  });

  it('refuses a protected call without a token before sending it', async () => {
    const log: Recorded[] = [];
    const error = await failure(
      transport(log, {}, { token: null }).request({ url: '/users/current', level: 'protected' }),
    );
    expect(error.kind).toBe('auth');
    expect(log).toHaveLength(0);
  });

  it('negotiates gzip and hands back decoded text', async () => {
    const log: Recorded[] = [];
    const res = await transport(log).request({
      url: `/catalog/titles/movies/${movieId}`,
      level: 'signed',
      cache: false,
    });
    expect(log[0]!.requestHeaders['accept-encoding']).toBe('gzip');
    expect(log[0]!.responseHeaders['content-encoding']).toBe('gzip');
    expect(res.body.startsWith('<?xml') || res.body.startsWith('<catalog_title')).toBe(true);
    expect(res.body).toContain('<catalog_title');
  });

  it('a second read is a 304 served from the cache, also after a restart', async () => {
    const log: Recorded[] = [];
    const req: ServiceRequest = { url: '/catalog/titles', query: { term: 'night', max_results: '5' }, level: 'signed' };
    const first = await transport(log).request(req);
    expect(first.fromCache).toBe(false);
    const second = await transport(log).request({ ...req, query: { max_results: '5', term: 'night' } });
    expect(second).toMatchObject({ status: 200, fromCache: true, body: first.body });
    expect(second.headers['content-type']).toContain('xml');
    expect(log.map((r) => r.status)).toEqual([200, 304]);
    expect(log[1]!.requestHeaders['if-none-match']).toBe(first.headers.etag);

    // "Restart": a new cache instance on the same directory, a new transport.
    const restartedStore = openEtagCache({ dir });
    const after = createTransport({
      getContext: () => context(),
      cache: () => restartedStore.forUser(`default:${svc.subscriber.id}`),
      fetch: recordingFetch(log),
    });
    const third = await after.request(req);
    expect(third.fromCache).toBe(true);
    expect(third.body).toBe(first.body);
    expect(log.map((r) => r.status)).toEqual([200, 304, 304]);
  });

  it('a protected resource is revalidated too', async () => {
    const log: Recorded[] = [];
    const url = `/users/${svc.subscriber.id}/queues/instant`;
    await transport(log).request({ url, level: 'protected' });
    const again = await transport(log).request({ url, level: 'protected' });
    expect(again.fromCache).toBe(true);
    expect(log.map((r) => r.status)).toEqual([200, 304]);
  });

  it('drops a corrupt cache entry and fetches the resource again', async () => {
    const log: Recorded[] = [];
    const req: ServiceRequest = { url: `/catalog/titles/movies/${movieId}`, query: { v: '1.5' }, level: 'signed' };
    const first = await transport(log).request(req);
    // The key is the normalised URL with its non-OAuth parameters, however the request was signed.
    const name = entryFileName(cacheKeyOf(normalizeUrl(`${svc.url}${req.url}`), [['v', '1.5']]));
    const nsDir = readdirSync(dir)
      .map((d) => join(dir, d))
      .find((d) => readdirSync(d).includes(name))!;
    const file = join(nsDir, name);
    writeFileSync(file, 'MQEC1\n{"key":"torn'); // a torn write
    const freshStore = openEtagCache({ dir });
    const t = createTransport({
      getContext: () => context(),
      cache: freshStore.forUser(`default:${svc.subscriber.id}`),
      fetch: recordingFetch(log),
    });
    const second = await t.request(req);
    expect(second.fromCache).toBe(false);
    expect(second.body).toBe(first.body);
    expect(log.map((r) => r.status)).toEqual([200, 200]);
    expect(log[1]!.requestHeaders['if-none-match']).toBeUndefined();
    expect((await t.request(req)).fromCache).toBe(true); // stored again, whole
  });

  it('sends a GET whose URL would pass 4096 bytes as POST with X-HTTP-Method-Override', async () => {
    const log: Recorded[] = [];
    const term = 'x'.repeat(5000);
    const req: ServiceRequest = { url: '/catalog/titles', query: { term }, level: 'signed' };
    const res = await transport(log).request(req);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<catalog_titles');
    expect(log[0]).toMatchObject({ method: 'POST', status: 200 });
    expect(log[0]!.requestHeaders['x-http-method-override']).toBe('GET');
    expect(log[0]!.url).toBe(`${svc.url}/catalog/titles`);
    // Cached like any GET: the override is revalidated with If-None-Match as well.
    const again = await transport(log).request(req);
    expect(again.fromCache).toBe(true);
    expect(log[1]).toMatchObject({ method: 'POST', status: 304 });
    // The key level too.
    const key = await transport(log).request({
      url: '/catalog/titles/autocomplete',
      query: { term },
      level: 'key',
      cache: false,
    });
    expect(key.status).toBe(200);
    expect(log[2]!.method).toBe('POST');
  });

  it('maps error statuses to AppError kinds', async () => {
    const t = transport([]);
    expect(await failure(t.request({ url: '/catalog/titles/movies/987654321', level: 'signed' }))).toMatchObject({
      kind: 'not_found',
      status: 404,
      message: 'Resource not found',
    });
    expect(await failure(t.request({ url: '/catalog/titles', level: 'signed' }))).toMatchObject({
      kind: 'invalid',
      status: 400,
      message: 'term is required',
    });
    const badToken = transport([], {}, { token: { key: token.key, secret: 'nope' } });
    expect(await failure(badToken.request({ url: '/users/current', level: 'protected' }))).toMatchObject({
      kind: 'auth',
      status: 401,
      message: 'Invalid Signature',
    });
    expect(await failure(t.request({ url: '/users/someoneelse', level: 'protected' }))).toMatchObject({
      status: 403,
      kind: 'auth',
    });
  });

  it('sends If-Match on queue writes; a 412 is a conflict and never retried', async () => {
    const log: Recorded[] = [];
    const sleeps: number[] = [];
    const t = transport(log, { sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
    const url = `/users/${svc.subscriber.id}/queues/disc`;
    const error = await failure(
      t.request({
        method: 'PUT',
        url,
        form: { title_ref: `${svc.url}/catalog/titles/movies/${movieId}` },
        ifMatch: '"987654"',
        level: 'protected',
      }),
    );
    expect(error).toMatchObject({ kind: 'conflict', status: 412 });
    expect(log).toHaveLength(1);
    expect(log[0]!.requestHeaders['if-match']).toBe('"987654"');
    expect(sleeps).toEqual([]);
  });

  it('retries idempotent requests on network errors and 5xx with growing, jittered delays', async () => {
    let failures = 2;
    const proxy = await startProxy(svc.url, () => (failures-- > 0 ? 'destroy' : 'pass'));
    try {
      const sleeps: number[] = [];
      const online: boolean[] = [];
      const t = transport(
        [],
        {
          sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
          random: () => 0.5,
          onConnectivity: (o) => online.push(o),
        },
        { baseUrl: proxy.url },
      );
      const res = await t.request({ url: '/catalog/titles', query: { term: 'war' }, level: 'signed', cache: false });
      expect(res.status).toBe(200);
      expect(proxy.seen).toHaveLength(3);
      expect(sleeps).toEqual([188, 375]); // base 250: [125..250] then [250..500], at the midpoint
      expect(online).toEqual([false, true]);

      let fiveXX = 2;
      const proxy5 = await startProxy(svc.url, () => (fiveXX-- > 0 ? 503 : 'pass'));
      try {
        const t5 = transport([], { sleep: (ms) => (sleeps.push(ms), Promise.resolve()) }, { baseUrl: proxy5.url });
        const ok = await t5.request({
          method: 'PUT',
          url: `/users/${svc.subscriber.id}/ratings/title/actual/${movieId}`,
          form: { rating: '3' },
          level: 'protected',
        });
        expect(ok.status).toBe(200);
        expect(proxy5.seen).toHaveLength(3);

        fiveXX = 5;
        const error = await failure(
          t5.request({ url: '/catalog/titles', query: { term: 'war' }, level: 'signed', cache: false }),
        );
        expect(error).toMatchObject({ kind: 'server', status: 503 });
        expect(proxy5.seen).toHaveLength(6); // at most 3 attempts
      } finally {
        await proxy5.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('does not retry a POST after a network error, and reports offline', async () => {
    const proxy = await startProxy(svc.url, () => 'destroy');
    try {
      const t = transport([], { sleep: () => Promise.resolve() }, { baseUrl: proxy.url });
      const error = await failure(
        t.request({
          method: 'POST',
          url: `/users/${svc.subscriber.id}/queues/disc`,
          form: { title_ref: 'x' },
          level: 'protected',
        }),
      );
      expect(error.kind).toBe('offline');
      expect(proxy.seen).toHaveLength(1);
      const get = await failure(t.request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed' }));
      expect(get.kind).toBe('offline');
      expect(proxy.seen).toHaveLength(4);
    } finally {
      await proxy.close();
    }
  });

  it('with nothing listening: offline', async () => {
    const proxy = await startProxy(svc.url, () => 'pass');
    await proxy.close(); // a port nobody listens on now
    const t = transport([], { sleep: () => Promise.resolve() }, { baseUrl: proxy.url });
    expect(await failure(t.request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed' }))).toMatchObject({
      kind: 'offline',
    });
  });

  it('resends PUT as POST + override when a proxy refuses the verb (405/501), and keeps doing so', async () => {
    const proxy = await startProxy(svc.url, (req) => (req.method === 'PUT' || req.method === 'DELETE' ? 405 : 'pass'));
    try {
      const log: Recorded[] = [];
      const t = transport(log, {}, { baseUrl: proxy.url });
      const url = `/users/${svc.subscriber.id}/ratings/title/actual/${movieId}`;
      const res = await t.request({ method: 'PUT', url, form: { rating: '5' }, level: 'protected' });
      expect(res.status).toBe(200);
      expect(log.map((r) => `${r.method} ${r.status} ${r.requestHeaders['x-http-method-override'] ?? ''}`)).toEqual([
        'PUT 405 ',
        'POST 200 PUT',
      ]);
      await t.request({ method: 'PUT', url, form: { rating: '4' }, level: 'protected' });
      expect(log[2]).toMatchObject({ method: 'POST', status: 200 });
      const rating = await t.request({ url, level: 'protected', cache: false });
      expect(rating.body).toMatch(/<user_rating[^>]*>4(\.0)?</);
    } finally {
      await proxy.close();
    }
  });

  it('turns a per-day quota refusal into a quota error with the time to wait', async () => {
    const consumer = await createConsumer(svc.db, { name: 'Quota app' });
    await setConsumerQuota(svc.db, consumer.key, null, 1);
    const quotas: AppError[] = [];
    const t = createTransport({
      getContext: () => context({ consumer: { key: consumer.key, secret: consumer.secret }, token: null }),
      onQuota: (e) => quotas.push(e),
    });
    await t.request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed' });
    const error = await failure(t.request({ url: '/catalog/titles', query: { term: 'b' }, level: 'signed' }));
    expect(error).toMatchObject({ kind: 'quota', status: 403, message: 'Over queries per day limit' });
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(86_400);
    expect(quotas).toEqual([error]);
  });

  it('corrects clock skew: 401 Timestamp Is Invalid → reads the clock → retries, and later calls succeed first time', async () => {
    const log: Recorded[] = [];
    const t = transport(log, { now: () => Date.now() - 20 * 60 * 1000 });
    const res = await t.request({ url: '/users/current', level: 'protected', cache: false });
    expect(res.status).toBe(200);
    expect(log.map((r) => `${r.status} ${new URL(r.url).pathname}`)).toEqual([
      '401 /users/current',
      '200 /oauth/clock/time',
      '200 /users/current',
    ]);
    expect(log[1]!.url).toContain('oauth_consumer_key=');
    expect(Math.abs(t.clockOffset - 1200)).toBeLessThanOrEqual(2);
    await t.request({ url: '/catalog/titles', query: { term: 'sea' }, level: 'signed', cache: false });
    expect(log.slice(3).map((r) => r.status)).toEqual([200]);
  });

  it('cancellation rejects with AbortError; a timeout is offline', async () => {
    const proxy = await startProxy(svc.url, () => 'hang');
    try {
      const t = transport([], { sleep: () => Promise.resolve() }, { baseUrl: proxy.url });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const cancelled = await t
        .request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed', signal: controller.signal })
        .catch((e: unknown) => e);
      expect(isAbortError(cancelled)).toBe(true);
      expect(cancelled).not.toBeInstanceOf(ServiceError);

      const already = await t
        .request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed', signal: AbortSignal.abort() })
        .catch((e: unknown) => e);
      expect(isAbortError(already)).toBe(true);

      const before = proxy.seen.length;
      const started = Date.now();
      const timedOut = await failure(
        t.request({ url: '/catalog/titles', query: { term: 'a' }, level: 'signed', timeoutMs: 150 }),
      );
      expect(timedOut.kind).toBe('offline');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(proxy.seen.length - before).toBe(1); // not retried
    } finally {
      await proxy.close();
    }
  });
});
