import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { verifyRequest, type AuthContext } from '../oauth/verify.ts';
import { catalogGeneration, heldGeneration } from '../store/catalog/generation.ts';
import { signedRequestFrom } from './auth.ts';
import { acceptsGzip, gzipOnce, matches } from './etag.ts';
import { handOver } from './kept-get-handover.ts';
import { urlTooLong } from './limits.ts';
import { UNMATCHED } from './observe.ts';
import { outputFrom, Params, queryPairs, versionFrom } from './params.ts';
import { judgeCharge } from './quota.ts';
import type { KeptLevel, Rendered } from './rendered-cache.ts';
import { representationKey } from './represent-cache.ts';

/**
 * The kept-GET path: a `node:http` request listener in front of Fastify's that answers a signed
 * GET whose representation is kept (represent-cache.ts) without routing, hooks or a reply object,
 * with the same checks in the same order as the route — OAuth signature and timestamp, the guard's
 * nonce claim and quota charge, the token, then If-None-Match — and the same bytes (status,
 * headers, gzip, body; test/service/kept-get.test.ts compares them). Everything else goes to
 * Fastify unchanged; so does a request the checks refuse, which the route then refuses the same
 * way (nothing was claimed, or the nonce was, and the route reads it as the replay it now is). A
 * request refused by its quota, or whose catalog changed meanwhile, is handed to the route already
 * verified (kept-get-handover.ts), since its nonce is spent. Off with a logger (every request is
 * logged by Fastify) and behind a trusted proxy (the scheme then comes from X-Forwarded-Proto).
 */
export function answerKeptGets(app: FastifyInstance, svc: ServiceContext): void {
  const server = app.server;
  const [routes] = server.listeners('request') as RequestListener[];
  if (!routes) return;
  let open = true;
  // Closing, Fastify answers 503 (return503OnClosing): new requests go to it.
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });
  const take = (req: IncomingMessage, res: ServerResponse, started: number) => {
    const kept = open ? findKept(svc, req) : undefined;
    if (kept) void verifyAndSend(svc, req, res, kept, routes, started);
    else routes(req, res);
  };
  server.removeListener('request', routes);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = svc.metrics ? performance.now() : 0; // timed only for the metrics
    // The generation is trusted for a second (generation.ts); a GET after that reads it first.
    if (open && req.method === 'GET' && heldGeneration(svc.db) === undefined) {
      catalogGeneration(svc.db).then(
        () => take(req, res, started),
        () => routes(req, res),
      );
    } else take(req, res, started);
  });
}

interface Kept {
  rendered: Rendered & { level: KeptLevel };
  params: Params;
  generation: number;
}

/** The kept representation a plain GET asks for again, or undefined (the routes answer it). */
function findKept(svc: ServiceContext, req: IncomingMessage): Kept | undefined {
  const url = req.url;
  if (req.method !== 'GET' || url === undefined || url.charCodeAt(0) !== 0x2f || urlTooLong(url)) return undefined;
  const headers = req.headers;
  if (headers['x-http-method-override'] !== undefined || hasBody(req)) return undefined;
  const generation = heldGeneration(svc.db);
  if (generation === undefined) return undefined;
  const params = new Params(queryPairs(url), []);
  if (params.has('method')) return undefined;
  const version = versionOrUndefined(params);
  if (version === undefined) return undefined;
  const key = representationKey(generation, outputFrom(params, headers.accept), version, url, params.query);
  const rendered = svc.representations.get(key);
  if (!rendered?.level) return undefined;
  return { rendered: rendered as Kept['rendered'], params, generation };
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function versionOrUndefined(params: Params) {
  try {
    return versionFrom(params);
  } catch {
    return undefined; // the route answers 400
  }
}

async function verifyAndSend(
  svc: ServiceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kept: Kept,
  routes: RequestListener,
  started: number,
): Promise<void> {
  let auth: AuthContext;
  try {
    const signed = signedRequestFrom('GET', schemeOf(req), req.url!, req.headers, kept.params);
    auth = await verifyRequest(svc.verifier, signed, kept.rendered.level, { now: svc.now });
  } catch {
    routes(req, res);
    return;
  }
  if (!withinQuota(auth, svc.now()) || heldGeneration(svc.db) !== kept.generation) {
    handOver(req, auth);
    routes(req, res);
    return;
  }
  try {
    const status = sendKept(svc, req, res, kept.rendered);
    // Counted as Fastify's hooks count the route's answers (observe.ts), under the route that rendered it.
    svc.metrics?.request(kept.rendered.route ?? UNMATCHED, 'GET', status, (performance.now() - started) / 1000);
  } catch (error) {
    // Nothing here is expected to throw; if it does, the route answers (a 500 at worst), never an unhandled rejection.
    if (res.headersSent) res.destroy(error as Error);
    else {
      handOver(req, auth);
      routes(req, res);
    }
  }
}

/** The route's quota judgement (quota.ts) on the charge the guard made with the nonce claim. */
function withinQuota(auth: AuthContext, now: number): boolean {
  if (!auth.charge) return false;
  try {
    judgeCharge(auth.consumer, auth.charge, now);
    return true;
  } catch {
    return false;
  }
}

/** Fastify's `req.protocol` without a trusted proxy. */
function schemeOf(req: IncomingMessage): string {
  return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
}

/**
 * What the route, the ETag rule and Fastify's reply send for a kept representation (etag.ts,
 * represent-cache.ts), headers in the order they set them.
 */
function sendKept(svc: ServiceContext, req: IncomingMessage, res: ServerResponse, r: Rendered): number {
  if (matches(req.headers['if-none-match'], r.etag)) {
    res.writeHead(304, { etag: r.etag, vary: 'Accept-Encoding' });
    res.end();
    return 304;
  }
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const body = gzip ? gzipOnce(svc.gzipped, r.etag, r.type, r.body) : r.body;
  res.writeHead(200, {
    etag: r.etag,
    'content-type': r.type,
    vary: 'Accept-Encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    'content-length': String(body.length),
  });
  res.end(body);
  return 200;
}
