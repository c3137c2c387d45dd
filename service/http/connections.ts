import { STATUS_CODES, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { statusElement } from './status.ts';
import { toXml } from '../xml/xml.ts';

/**
 * How long a client may take and how many connections one address may hold (issue 10, defect 6).
 * A request trickled in a byte at a time is cut off at `requestMs`; an idle socket at `idleMs`.
 */
export interface ConnectionLimits {
  /** The whole request, headers and body, must arrive within this. */
  requestMs: number;
  /** The headers must arrive within this. */
  headersMs: number;
  /** A kept-alive connection with no request in flight closes after this. */
  keepAliveMs: number;
  /** A socket with no traffic at all closes after this. */
  idleMs: number;
  /** Open connections one remote address may have; the next is answered 503 and closed. */
  perIp: number;
  /** How long a stop lets requests under way finish before it cuts the connections still open. */
  drainMs: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  requestMs: 30_000,
  headersMs: 15_000,
  keepAliveMs: 5_000,
  idleMs: 60_000,
  perIp: 256,
  drainMs: 5_000,
};

export const TOO_MANY_CONNECTIONS = 'Too many connections from your address; close some and retry';

/** Fastify's timeout options and the `http.createServer` options it passes on. */
export function timeoutOptions(limits: ConnectionLimits) {
  return {
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.keepAliveMs,
    connectionTimeout: limits.idleMs,
    // Node checks the request and header deadlines this often (default 30 s, too coarse for short limits).
    http: { headersTimeout: limits.headersMs, connectionsCheckingInterval: Math.min(1_000, limits.headersMs) },
  };
}

/**
 * A stop (`app.close()`) closes the idle connections and waits for the rest. A client in the
 * middle of a request (its headers not finished) or one that keeps its connection busy would hold
 * the stop up to the idle limit: once the server closes, Node no longer checks the header and
 * request deadlines. After `drainMs` the connections still open are cut, so a stop always ends
 * (a SIGTERM'd service once outlived its supervisor's 10 s for this).
 */
export function boundTheDrain(app: FastifyInstance, drainMs: number): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    const cut = setTimeout(() => server.closeAllConnections(), drainMs).unref();
    server.once('close', () => clearTimeout(cut));
    done();
  });
}

/** Counts open connections per remote address and turns away those over the bound. */
export function limitConnectionsPerIp(server: Server, perIp: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const count = (open.get(ip) ?? 0) + 1;
    if (count > perIp) {
      refuse(socket, 503, TOO_MANY_CONNECTIONS);
      return;
    }
    open.set(ip, count);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route sees it (a
 * header block too large, broken framing, a request too slow) is answered in the contract's
 * `<status>` form with `Connection: close`, so a keep-alive client knows to reconnect.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return refuse(socket, 408, 'Request timed out: the whole request must arrive within the time limit');
  if (error.code === 'HPE_HEADER_OVERFLOW') return refuse(socket, 431, 'Request header fields too large');
  refuse(socket, 400, 'Malformed HTTP request');
}

function refuse(socket: Socket, code: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = toXml(statusElement(code, message));
  const head = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code]}`,
    'Content-Type: application/xml; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // A client that never reads must not keep the socket.
  socket.setTimeout(5_000, () => socket.destroy());
}
