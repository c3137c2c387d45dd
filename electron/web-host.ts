import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AuthStatus } from '../shared/models.ts';
import type { AppCore, EmbeddedServiceInfo } from './core/app-core.ts';
import { contentType, pinnedTheme, resolveRendererFile, withPinnedTheme } from './renderer-files.ts';
import { ROOT, startEmbeddedService } from './embedded-service.ts';
import { superviseEmbeddedService } from './service-address.ts';
import { withServiceEvents, type ServiceSupervisor } from './service-supervisor.ts';
import { guardedOpenExternal, originsOf, rendererHeaders, type ImageOrigins } from './window-options.ts';

/**
 * The app in a browser: the same core in a Node process, serving the built renderer and the API
 * on loopback only. Every API call must carry the per-launch token (a header, so no other page
 * can send it) and come with this host's own Host (no DNS rebinding) and Origin, if any.
 *   POST /api/<operation>  JSON input → JSON Result
 *   GET  /api/events       Server-Sent Events: `event: <name>` / `data: <json>`
 */

export interface WebHostOptions {
  core: AppCore;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** The services' URLs (the active one, or every known one), for the CSP's img-src (box art). */
  serviceOrigin?: () => Promise<ImageOrigins> | ImageOrigins;
  /** The theme the person pinned (null: the system's), named in index.html for the first paint; absent: none. */
  pinnedTheme?: () => Promise<'light' | 'dark' | null>;
  /** 0 (default): any free port. */
  port?: number;
  token?: string;
}

export interface WebHost {
  /** http://127.0.0.1:<port> */
  url: string;
  token: string;
  /** The URL to open: the token travels in the fragment, which is never sent to a server. */
  launchUrl: string;
  close(): Promise<void>;
}

export const TOKEN_HEADER = 'x-marquee-token';
const MAX_BODY = 1024 * 1024;
const HEARTBEAT_MS = 25_000;

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  // The IPC layer (zod's schemas) loads here, not with this module: `npm run start:web` spawns the
  // service first and loads it (with the core, which shares it) while the service starts.
  const [{ EVENT_NAMES, isOperationName }, { createIpcServer }] = await Promise.all([
    import('../shared/ipc.ts'),
    import('./bridge.ts'),
  ]);
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  const ipc = createIpcServer<null>(
    (name, input) => opts.core.dispatch(name, input),
    () => true,
  );
  const streams = new Set<ServerResponse>();
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
      else res.destroy();
      console.error('web host:', error instanceof Error ? error.message : error);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a foreign name resolving to 127.0.0.1 still says its own name in Host.
    if (!hosts.has(req.headers.host ?? '')) return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden host');
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (path === '/api' || path.startsWith('/api/')) return api(req, res, path);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: 'GET, HEAD' });
    return serveFile(req, res, path);
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return json(res, 403, failure('auth', 403, 'Forbidden origin'));
    if (req.headers['sec-fetch-site'] === 'cross-site')
      return json(res, 403, failure('auth', 403, 'Forbidden cross-site request'));
    if (!hasToken(req))
      return json(res, 401, failure('auth', 401, 'Missing or wrong token: open the URL the web host printed.'), {
        'www-authenticate': 'Bearer',
      });
    const name = path.slice('/api/'.length); // operation names are plain ASCII: nothing to decode
    if (name === 'events') {
      if (req.method !== 'GET') return json(res, 405, failure('invalid', 405, 'Use GET'), { allow: 'GET' });
      return events(req, res);
    }
    if (!isOperationName(name))
      return json(res, 404, failure('not_found', 404, `Unknown operation: ${name.slice(0, 100)}`));
    if (req.method !== 'POST') return json(res, 405, failure('invalid', 405, 'Use POST'), { allow: 'POST' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return json(res, 415, failure('invalid', 415, 'Send application/json'));
    const body = await readBody(req);
    if (body === null) return json(res, 413, failure('invalid', 413, 'Body too large'));
    let input: unknown;
    try {
      input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    } catch {
      return json(res, 400, failure('invalid', 400, 'Body is not JSON'));
    }
    return json(res, 200, await ipc.handle(null, name, input));
  }

  function hasToken(req: IncomingMessage): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const header = req.headers[TOKEN_HEADER];
    const given = Buffer.from(bearer ?? (typeof header === 'string' ? header : ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n: connected\n\n');
    const unsubscribe = EVENT_NAMES.map((event) =>
      opts.core.on(event, (payload) => res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`)),
    );
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    streams.add(res);
    req.once('close', () => {
      clearInterval(heartbeat);
      for (const off of unsubscribe) off();
      streams.delete(res);
    });
  }

  async function serveFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const found = await resolveRendererFile(opts.rendererDir, path);
    if (found.kind === 'not_built')
      return send(res, 503, 'text/plain; charset=utf-8', 'The renderer is not built: run npm run build:renderer');
    if (found.kind === 'not_found') return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
    const headers = {
      ...rendererHeaders(originsOf(await opts.serviceOrigin?.())),
      'cache-control': found.isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
    };
    const body = req.method === 'HEAD' ? '' : await readFile(found.path);
    const page =
      found.isIndex && body ? withPinnedTheme(body.toString('utf8'), (await opts.pinnedTheme?.()) ?? null) : body;
    send(res, 200, contentType(found.path), page, headers);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  origins = new Set([...hosts].map((h) => `http://${h}`));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    token,
    launchUrl: `${url}/#token=${token}`,
    async close() {
      for (const res of streams) res.end();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

function failure(kind: 'auth' | 'invalid' | 'not_found', status: number, message: string) {
  return { ok: false, error: { kind, status, message } } as const;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), {
    'cache-control': 'no-store',
    ...headers,
  });
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers });
  res.end(body);
}

/** The body, or null once it passes MAX_BODY. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Electron's userData folder for "Marquee", so the web host and the desktop app share their data. */
export function defaultUserDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.MARQUEE_USER_DATA_DIR) return resolve(env.MARQUEE_USER_DATA_DIR);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Marquee');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Marquee');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Marquee');
}

/** Opens a URL in the system browser when there is one: false when none could be started; never throws. */
export function openInBrowser(url: string): Promise<boolean> {
  const command =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['rundll32', 'url.dll,FileProtocolHandler', url]
        : process.env.DISPLAY || process.env.WAYLAND_DISPLAY
          ? ['xdg-open', url]
          : null;
  if (!command) return Promise.resolve(false);
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore', detached: true });
    child.once('error', () => done(false));
    child.once('spawn', () => (child.unref(), done(true)));
  });
}

/**
 * The service the built-in profile points at instead of starting the embedded one (end-to-end
 * tests that stop and restart it): MARQUEE_SERVICE_URL with MARQUEE_CONSUMER_KEY and
 * MARQUEE_CONSUMER_SECRET. Null when MARQUEE_SERVICE_URL is not set.
 */
export function serviceFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddedServiceInfo | null {
  const url = env.MARQUEE_SERVICE_URL?.trim();
  if (!url) return null;
  const key = env.MARQUEE_CONSUMER_KEY?.trim();
  const secret = env.MARQUEE_CONSUMER_SECRET?.trim();
  if (!key || !secret)
    throw new Error(
      'MARQUEE_SERVICE_URL needs MARQUEE_CONSUMER_KEY and MARQUEE_CONSUMER_SECRET too: the consumer the app signs with on that service.',
    );
  if (!/^https?:\/\/[^/]/.test(url))
    throw new Error(
      `MARQUEE_SERVICE_URL must be an http(s) address, like http://127.0.0.1:8731 (got ${JSON.stringify(url)}).`,
    );
  return { url: url.replace(/\/+$/, ''), consumer: { key, secret } };
}

/** Prints each pending sign-in's address once (the page shows a PIN to type into Marquee in 'oob' mode). */
function printSignInAddress(): (status: AuthStatus) => void {
  let printed = '';
  return ({ pending }) => {
    if (!pending || pending.loginUrl === printed) return;
    printed = pending.loginUrl;
    console.log(`Open this address to sign in: ${pending.loginUrl}`);
    if (pending.mode === 'oob') console.log('The page will show a PIN: type it into Marquee.');
  };
}

/** `npm run start:web`: embedded service + core + web host, stopped together by SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const userDataDir = defaultUserDataDir();
  let service: ServiceSupervisor | undefined;
  let core: AppCore | undefined;
  let host: WebHost | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    service?.endRestarts(); // a Ctrl+C reaches the service too: its exit is no crash
    await host?.close().catch(() => {});
    await core?.close().catch(() => {});
    await service?.stop().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  try {
    const external = serviceFromEnv();
    const log = (line: string) => console.error(`[service] ${line}`);
    // Supervised, on the port kept by earlier launches: a process that exits is started again on it.
    const starting = external
      ? null
      : superviseEmbeddedService({
          userDataDir,
          start: (port) => startEmbeddedService({ userDataDir, port, log }),
          log,
        });
    // The core's code (a chunk of the bundle) loads while the service starts, not before.
    const coreLoader = import('./core-loader.ts');
    coreLoader.catch(() => {}); // awaited below, once the service is up (or has failed)
    if (!starting) {
      console.log(`Using the service at ${external!.url} (MARQUEE_SERVICE_URL); data in ${userDataDir}`);
    } else {
      service = await starting;
      console.log(`Embedded service listening on ${service.url} (data in ${userDataDir})`);
      if (service.demoSignIn)
        console.log(`Demo sign-in: login ${service.demoSignIn.login}, password ${service.demoSignIn.password}`);
    }
    const { activeBaseUrl, knownServiceOrigins, loadCore } = await coreLoader;
    const embedded: EmbeddedServiceInfo = external ?? service!;
    const baseUrl = () => (core ? activeBaseUrl(core, embedded.url) : embedded.url);
    // Without a browser (MARQUEE_NO_BROWSER=1, no display) the sign-in asks the service for a PIN
    // page instead, so its link works on any device; the link is printed either way.
    const openSignIn = async (url: string): Promise<boolean> =>
      process.env.MARQUEE_NO_BROWSER !== '1' && (await openInBrowser(url));
    core = await loadCore({
      userDataDir,
      embeddedService: embedded,
      host: 'node',
      openExternal: guardedOpenExternal(baseUrl, openSignIn),
      // Off (checks only when asked) for end-to-end tests whose subject is not alerts.
      watchAlerts: process.env.MARQUEE_WATCH_ALERTS !== '0',
      // Off for end-to-end tests of what an app that has not heard of another device's change does.
      liveUpdates: process.env.MARQUEE_LIVE_UPDATES !== '0',
    });
    core.on('auth.changed', printSignInAddress());
    if (stopping) return;
    const rendererDir = join(ROOT, 'dist', 'renderer');
    if (!existsSync(join(rendererDir, 'index.html')))
      console.error('The renderer is not built: run npm run build:renderer');
    const serviceOrigin = () => (core ? knownServiceOrigins(core, embedded.url) : embedded.url);
    const relayed = service ? withServiceEvents(core, service) : core;
    host = await startWebHost({
      core: relayed,
      rendererDir,
      serviceOrigin,
      pinnedTheme: () => pinnedTheme(relayed),
      port: Number(process.env.MARQUEE_WEB_PORT ?? 0),
    });
    console.log(`Marquee is running at ${host.launchUrl}`);
    if (process.env.MARQUEE_NO_BROWSER !== '1') await openInBrowser(host.launchUrl);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) void main();
