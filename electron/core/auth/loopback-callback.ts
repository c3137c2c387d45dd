import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The one-shot redirect listener of RFC 8252 §7.3: `http://127.0.0.1:<random port>/<random path>`.
 * It accepts exactly one callback carrying the expected `oauth_token` (and an `oauth_verifier`),
 * answers it with a small "you can close this window" page and closes. Anything else gets an error
 * page (400 for a wrong or incomplete callback, 404 for another path, 405 for another method) and
 * is otherwise ignored.
 */
export interface CallbackResult {
  token: string;
  verifier: string;
}

export interface LoopbackCallback {
  /** The URL to pass as oauth_callback. */
  readonly url: string;
  /** Sets the request token a callback must carry; callbacks before this are refused. */
  expect(token: string): void;
  /** Settles once with the good callback (or never, until close()). */
  readonly result: Promise<CallbackResult>;
  /** Stops listening and drops open connections; idempotent. */
  close(): Promise<void>;
  readonly closed: boolean;
}

export interface LoopbackOptions {
  /** Default 127.0.0.1 (RFC 8252 §8.3: the IP literal, not `localhost`). */
  host?: string | undefined;
  /** Default 0: a port the OS picks. */
  port?: number | undefined;
  /** The page's application name. */
  applicationName?: string;
}

/** Binds the listener; rejects (EADDRINUSE, EADDRNOTAVAIL, EACCES…) when it cannot. */
export async function startLoopbackCallback(options: LoopbackOptions = {}): Promise<LoopbackCallback> {
  const host = options.host ?? '127.0.0.1';
  const path = `/marquee/oauth-callback/${randomBytes(16).toString('base64url')}`;
  let expected: string | null = null;
  let done = false;
  let closed = false;
  let resolve!: (r: CallbackResult) => void;
  const result = new Promise<CallbackResult>((r) => (resolve = r));

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://loopback.invalid');
    } catch {
      return page(res, 400, 'Bad request', 'This address is not a sign-in callback.');
    }
    if (url.pathname !== path) return page(res, 404, 'Not found', 'This address is not a sign-in callback.');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return page(res, 405, 'Method not allowed', 'This address is not a sign-in callback.');
    // DNS rebinding: only the literal address we gave the service may be in Host.
    if (!hostMatches(req, host, port)) return page(res, 400, 'Bad request', 'This address is not a sign-in callback.');
    if (done)
      return page(res, 400, 'Already signed in', 'This sign-in was already completed; you can close this window.');
    const token = url.searchParams.get('oauth_token');
    const verifier = url.searchParams.get('oauth_verifier');
    if (expected === null || token !== expected || !verifier) {
      return page(
        res,
        400,
        'Sign-in failed',
        'This sign-in link does not match the one the application is waiting for. Return to the application and sign in again.',
      );
    }
    if (req.method === 'HEAD') return page(res, 200, 'Signed in', '');
    done = true;
    page(
      res,
      200,
      'Signed in',
      `${options.applicationName ?? 'The application'} is now signed in. You can close this window and return to it.`,
      () => {
        resolve({ token, verifier });
        void close();
      },
    );
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostPart = host.includes(':') ? `[${host}]` : host;

  const close = (): Promise<void> => {
    if (closed) return Promise.resolve();
    closed = true;
    return new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
    });
  };

  return {
    url: `http://${hostPart}:${port}${path}`,
    expect: (token) => {
      expected = token;
    },
    result,
    close,
    get closed() {
      return closed;
    },
  };
}

function hostMatches(req: IncomingMessage, host: string, port: number): boolean {
  const header = req.headers.host;
  if (!header) return true; // HTTP/1.0: nothing to check
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return header.toLowerCase() === `${hostPart}:${port}`.toLowerCase();
}

function page(res: ServerResponse, status: number, title: string, message: string, then?: () => void): void {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Marquee</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><h1>${escape(title)}</h1><p>${escape(message)}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    // The URL carries the verifier: keep it out of Referer, and the page inert.
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body, then);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
