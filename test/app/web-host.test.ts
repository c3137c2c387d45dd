import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { serviceArgs } from '../../electron/embedded-service.ts';
import { serviceFromEnv, startWebHost, type WebHost } from '../../electron/web-host.ts';
import { parseCsp } from '../../electron/window-options.ts';
import type { AuthStatus, Page, Result, TitleSummary } from '../../shared/models.ts';
import { startLiveCore, type LiveCoreEnv } from './helpers/live-core.ts';
import { ensureAppBundles } from '../helpers/app-bundles.ts';

/**
 * The web host over the real core (createCore) against the real service on loopback, serving the
 * renderer `npm start` builds (dist/renderer, built once for the run). `dispatch` is watched, so
 * a refused call can be shown never to have reached the core.
 */

let env: LiveCoreEnv;
let host: WebHost;
let dispatch: ReturnType<typeof vi.fn<AppCore['dispatch']>>;
let rendererDir: string;

beforeAll(async () => {
  [env, rendererDir] = await Promise.all([startLiveCore({ signedIn: true }), ensureAppBundles()]);
  const real = env.core;
  dispatch = vi.fn<AppCore['dispatch']>((name, input) => real.dispatch(name, input));
  const watched: AppCore = { dispatch, on: (event, listener) => real.on(event, listener), close: () => real.close() };
  host = await startWebHost({ core: watched, rendererDir, serviceOrigin: () => env.svc.url });
});

afterAll(async () => {
  await host?.close();
  await env?.close();
});

const call = (
  name: string,
  input: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${host.token}` },
) =>
  fetch(`${host.url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });

/** A raw request, for headers fetch will not let a caller set (Host). */
function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (body += c))
        .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('listening', () => {
  test('binds 127.0.0.1 only', async () => {
    expect(new URL(host.url).hostname).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (external) await expect(fetch(`http://${external.address}:${new URL(host.url).port}/`)).rejects.toThrow();
  });

  test('hands out the token in the URL fragment, never sent to a server', () => {
    expect(host.launchUrl).toBe(`${host.url}/#token=${host.token}`);
    expect(host.token).toMatch(/^[\w-]{40,}$/);
  });
});

describe('the built renderer', () => {
  test('serves index.html with the CSP, images allowed from the service', async () => {
    const res = await fetch(`${host.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/<div id="root"><\/div>/);
    const csp = parseCsp(res.headers.get('content-security-policy') ?? '');
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toContain(env.svc.url);
  });

  test('serves its assets', async () => {
    const js = readdirSync(join(rendererDir, 'assets')).find((f) => f.endsWith('.js'))!;
    const res = await fetch(`${host.url}/assets/${js}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  test('never serves a file outside the renderer folder', async () => {
    for (const path of ['/..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const res = await raw(path, { host: new URL(host.url).host });
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('"name": "marquee"');
    }
  });
});

describe('the API refuses callers other than the page it served', () => {
  test('without a token: 401', async () => {
    const res = await call('auth.status', {}, {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } });
  });

  test('with a wrong token: 401', async () => {
    expect((await call('auth.status', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('auth.status', {}, { authorization: `Bearer ${host.token}x` })).status).toBe(401);
    expect((await call('auth.status', {}, { 'x-marquee-token': host.token.slice(1) })).status).toBe(401);
  });

  test('with the right token but a foreign Origin: 403', async () => {
    const res = await call('auth.status', {}, { authorization: `Bearer ${host.token}`, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    const other = await call(
      'auth.status',
      {},
      { authorization: `Bearer ${host.token}`, origin: 'http://127.0.0.1:1' },
    );
    expect(other.status).toBe(403);
  });

  test('with the right token but a foreign Host (DNS rebinding): 403', async () => {
    const res = await raw(
      '/api/auth.status',
      { host: `evil.example:${new URL(host.url).port}`, authorization: `Bearer ${host.token}` },
      'POST',
    );
    expect(res.status).toBe(403);
    expect((await raw('/', { host: 'evil.example' })).status).toBe(403);
  });

  test('answers no CORS preflight', async () => {
    const res = await fetch(`${host.url}/api/auth.status`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('no operation ran for any refused call', () => {
    expect(dispatch).not.toHaveBeenCalled();
  });
});

describe('operations', () => {
  test('answers an operation with its Result (Bearer or X-Marquee-Token, with its own Origin)', async () => {
    const res = await call('auth.status', {}, { authorization: `Bearer ${host.token}`, origin: host.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      ok: true,
      value: { signedIn: true, profileId: 'embedded', user: { id: env.svc.subscriber.id }, pending: null },
    });
    expect((await call('auth.status', {}, { 'x-marquee-token': host.token })).status).toBe(200);
  });

  test('catalog.search reaches the real service through the real core', async () => {
    env.exchanges.length = 0;
    const res = await call('catalog.search', { term: 'The Matrix', max: 3 });
    expect(res.status).toBe(200);
    const result = (await res.json()) as Result<Page<TitleSummary>>;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.total).toBeGreaterThan(0);
    expect(result.value.items[0]?.title).toBe('The Matrix');
    expect(result.value.items[0]?.boxArt.medium.startsWith(env.svc.url)).toBe(true);
    expect(env.exchanges.map((e) => [e.method, new URL(e.url).pathname, e.status])).toEqual([
      ['GET', '/catalog/titles', 200],
    ]);
  });

  test('invalid input comes back as a value in words, and no request reaches the service', async () => {
    env.exchanges.length = 0;
    const res = await call('catalog.search', { term: 'x'.repeat(501) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: false,
      error: { kind: 'invalid', status: 400, message: 'Search for at most 500 characters.' },
    });
    expect(env.exchanges).toEqual([]);
  });

  test('an unknown operation is 404; a GET is 405; a non-JSON body is refused', async () => {
    expect((await call('shell.openExternal', {})).status).toBe(404);
    expect(
      (await fetch(`${host.url}/api/auth.status`, { headers: { authorization: `Bearer ${host.token}` } })).status,
    ).toBe(405);
    const form = await fetch(`${host.url}/api/auth.status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
  });
});

describe('events', () => {
  test('streams the core’s events over Server-Sent Events: signing out is announced', async () => {
    const controller = new AbortController();
    const res = await fetch(`${host.url}/api/events`, {
      headers: { authorization: `Bearer ${host.token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    expect(text).toContain(': connected');
    expect((await call('auth.signOut', {})).status).toBe(200);
    while (!/event: auth.changed\ndata: .*\n\n/.test(text)) text += (await reader.read()).value ?? '';
    const data = /event: auth.changed\ndata: (.*)\n\n/.exec(text)![1]!;
    expect(JSON.parse(data) as AuthStatus).toMatchObject({ signedIn: false, profileId: 'embedded', pending: null });
    controller.abort();
  });

  test('refuses the stream without the token', async () => {
    expect((await fetch(`${host.url}/api/events`)).status).toBe(401);
  });
});

describe('a service chosen by the environment (end-to-end tests that stop and restart it)', () => {
  test('MARQUEE_SERVICE_URL with its consumer replaces the embedded service; a missing part is named', () => {
    expect(serviceFromEnv({})).toBeNull();
    expect(
      serviceFromEnv({
        MARQUEE_SERVICE_URL: 'http://127.0.0.1:9/',
        MARQUEE_CONSUMER_KEY: 'k',
        MARQUEE_CONSUMER_SECRET: 's',
      }),
    ).toEqual({ url: 'http://127.0.0.1:9', consumer: { key: 'k', secret: 's' } });
    expect(() => serviceFromEnv({ MARQUEE_SERVICE_URL: 'http://127.0.0.1:9' })).toThrow(
      /MARQUEE_CONSUMER_KEY and MARQUEE_CONSUMER_SECRET/,
    );
    expect(() =>
      serviceFromEnv({ MARQUEE_SERVICE_URL: 'file:///etc', MARQUEE_CONSUMER_KEY: 'k', MARQUEE_CONSUMER_SECRET: 's' }),
    ).toThrow(/http\(s\) address/);
  });

  test('MARQUEE_SERVICE_ARGS adds flags to the embedded service', () => {
    expect(serviceArgs('/data', { MARQUEE_SERVICE_ARGS: ' --per-second 3  --per-day 100 ' }).slice(-4)).toEqual([
      '--per-second',
      '3',
      '--per-day',
      '100',
    ]);
    expect(serviceArgs('/data', {}).at(-1)).toBe('--demo');
  });
});
