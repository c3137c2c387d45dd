import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { startWebHost, type WebHost } from '../../electron/web-host.ts';
import { parseCsp } from '../../electron/window-options.ts';
import type { EventName, Events, OperationName } from '../../shared/ipc.ts';
import type { AuthStatus, Page, Result, TitleSummary } from '../../shared/models.ts';
import { startLiveService, type LiveService } from '../helpers/live-service.ts';
import { authHeader } from '../helpers/oauth-client.ts';

/**
 * The web host against a small in-test core that answers `auth.status` and `catalog.search`
 * from the real service over loopback HTTP, serving a renderer built for this test.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let svc: LiveService;
let host: WebHost;
let core: ReturnType<typeof liveCore>;
let rendererDir: string;

function liveCore(service: LiveService) {
  const events = new EventEmitter();
  const status: AuthStatus = { signedIn: false, profileId: 'live', user: null, secureStorage: false, pending: null };
  const dispatch = vi.fn(async (name: OperationName, input: unknown): Promise<Result<unknown>> => {
    if (name === 'auth.status') return { ok: true, value: status };
    if (name === 'catalog.search') return { ok: true, value: await search(service, input as { term: string; max?: number }) };
    return { ok: false, error: { kind: 'server', message: `${name}: not in this test core` } };
  });
  const appCore: AppCore = {
    dispatch: dispatch as AppCore['dispatch'],
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      events.on(event, listener);
      return () => void events.off(event, listener);
    },
    close: async () => {},
  };
  return { core: appCore, dispatch, emit: <E extends EventName>(event: E, payload: Events[E]) => events.emit(event, payload), listeners: (e: EventName) => events.listenerCount(e) };
}

/** catalog.search through the service (consumer-signed), mapped from its XML just enough for this test. */
async function search(service: LiveService, input: { term: string; max?: number }): Promise<Page<TitleSummary>> {
  const url = `${service.url}/catalog/titles?term=${encodeURIComponent(input.term)}&max_results=${input.max ?? 10}`;
  const res = await fetch(url, { headers: { authorization: authHeader(service.consumer, 'GET', url), 'accept-encoding': 'identity' } });
  const xml = await res.text();
  const items = [...xml.matchAll(/<catalog_title><id>([^<]+)<\/id><title short="([^"]*)" regular="([^"]*)"\/><box_art small="([^"]+)" medium="([^"]+)" large="([^"]+)"\/>/g)].map(
    ([, ref, shortTitle, title, small, medium, large]) =>
      ({ ref, title, shortTitle, boxArt: { small, medium, large }, type: 'movie', year: null, runtimeSeconds: null, averageRating: null, genres: [], maturity: null, formats: [] }) as TitleSummary,
  );
  return { items, total: Number(/<number_of_results>(\d+)</.exec(xml)?.[1]), start: 0, perPage: items.length };
}

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'marquee-renderer-'));
  [svc] = await Promise.all([
    startLiveService(),
    build({ configFile: join(ROOT, 'renderer', 'vite.config.ts'), logLevel: 'silent', build: { outDir: rendererDir, emptyOutDir: true } }),
  ]);
  core = liveCore(svc);
  host = await startWebHost({ core: core.core, rendererDir, serviceOrigin: () => svc.url });
});

afterAll(async () => {
  await host?.close();
  await svc?.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

const call = (name: string, input: unknown, headers: Record<string, string> = { authorization: `Bearer ${host.token}` }) =>
  fetch(`${host.url}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });

/** A raw request, for headers fetch will not let a caller set (Host). */
function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('listening', () => {
  test('binds 127.0.0.1 only', async () => {
    expect(new URL(host.url).hostname).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
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
    expect(csp.get('img-src')).toContain(svc.url);
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
    const other = await call('auth.status', {}, { authorization: `Bearer ${host.token}`, origin: 'http://127.0.0.1:1' });
    expect(other.status).toBe(403);
  });

  test('with the right token but a foreign Host (DNS rebinding): 403', async () => {
    const res = await raw('/api/auth.status', { host: `evil.example:${new URL(host.url).port}`, authorization: `Bearer ${host.token}` }, 'POST');
    expect(res.status).toBe(403);
    expect((await raw('/', { host: 'evil.example' })).status).toBe(403);
  });

  test('answers no CORS preflight', async () => {
    const res = await fetch(`${host.url}/api/auth.status`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('no operation ran for any refused call', () => {
    expect(core.dispatch).not.toHaveBeenCalled();
  });
});

describe('operations', () => {
  test('answers an operation with its Result (Bearer or X-Marquee-Token, with its own Origin)', async () => {
    const res = await call('auth.status', {}, { authorization: `Bearer ${host.token}`, origin: host.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, value: { signedIn: false, profileId: 'live', user: null, secureStorage: false, pending: null } });
    expect((await call('auth.status', {}, { 'x-marquee-token': host.token })).status).toBe(200);
  });

  test('catalog.search reaches the real service', async () => {
    const res = await call('catalog.search', { term: 'The Matrix', max: 3 });
    expect(res.status).toBe(200);
    const result = (await res.json()) as Result<Page<TitleSummary>>;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.total).toBeGreaterThan(0);
    expect(result.value.items[0]?.title).toBe('The Matrix');
    expect(result.value.items[0]?.boxArt.medium.startsWith(svc.url)).toBe(true);
  });

  test('invalid input is refused as a value before the core runs', async () => {
    core.dispatch.mockClear();
    const res = await call('catalog.search', { term: '' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(core.dispatch).not.toHaveBeenCalled();
  });

  test('an unknown operation is 404; a GET is 405; a non-JSON body is refused', async () => {
    expect((await call('shell.openExternal', {})).status).toBe(404);
    expect((await fetch(`${host.url}/api/auth.status`, { headers: { authorization: `Bearer ${host.token}` } })).status).toBe(405);
    const form = await fetch(`${host.url}/api/auth.status`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
  });
});

describe('events', () => {
  test('streams an event over Server-Sent Events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${host.url}/api/events`, { headers: { authorization: `Bearer ${host.token}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    expect(text).toContain(': connected');
    const payload: AuthStatus = { signedIn: true, profileId: 'live', user: null, secureStorage: false, pending: null };
    core.emit('auth.changed', payload);
    while (!text.includes('event: auth.changed')) text += (await reader.read()).value ?? '';
    while (!/event: auth.changed\ndata: .*\n\n/.test(text)) text += (await reader.read()).value ?? '';
    const data = /event: auth.changed\ndata: (.*)\n\n/.exec(text)![1]!;
    expect(JSON.parse(data)).toEqual(payload);
    controller.abort();
    await vi.waitFor(() => expect(core.listeners('auth.changed')).toBe(0));
  });

  test('refuses the stream without the token', async () => {
    expect((await fetch(`${host.url}/api/events`)).status).toBe(401);
  });
});
