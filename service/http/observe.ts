import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Message } from '../../shared/protocol/index.ts';
import { ApiError } from '../model/api-error.ts';
import type { OAuthRefusal, QuotaWindow, ServiceMetrics } from './metrics.ts';

/** Response header carrying the id each request's log lines carry (`reqId`). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Route label of a request no route matched (a 404): one series, whatever the path. */
export const UNMATCHED = 'unmatched';

export interface Observation {
  metrics: ServiceMetrics | undefined;
  /** One JSON line per request at `info` (the logger's level allows it), and the request id sent back. */
  logRequests: boolean;
}

/**
 * What an operator sees of each request: counted and timed in the metrics, one log line at
 * `info`, OAuth and quota refusals counted by reason, and the request id in a response header
 * while there is a log to find it in. Nothing is registered for what is off.
 */
export function registerObservation(app: FastifyInstance, { metrics, logRequests }: Observation): void {
  if (logRequests) {
    app.addHook('onRequest', (req, reply, done) => {
      reply.header(REQUEST_ID_HEADER, req.id);
      done();
    });
  }
  if (metrics) {
    app.addHook('onError', (_req, _reply, error, done) => {
      countRefusal(metrics, error);
      done();
    });
  }
  if (!metrics && !logRequests) return;
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED;
    metrics?.request(route, req.method, reply.statusCode, reply.elapsedTime / 1000);
    if (logRequests) logRequest(req, reply, route);
    done();
  });
}

/** The one line per request: never a signature, token, secret or password (see `loggedUrl`). */
function logRequest(req: FastifyRequest, reply: FastifyReply, route: string): void {
  req.log.info(
    {
      method: req.method,
      url: loggedUrl(req.raw.url ?? '/'),
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 1000) / 1000,
      ...(req.consumerKey ? { consumer: req.consumerKey } : {}),
    },
    'request',
  );
}

/** Query parameters that sign or stand for a credential: kept out of the log. */
const CREDENTIAL_PARAMS = /^(oauth_|feed_token$)/;

/** The request target without OAuth's parameters or a feed token (signed query strings carry them). */
export function loggedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => pair !== '' && !CREDENTIAL_PARAMS.test(paramName(pair)));
  return kept.length > 0 ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The contract's refusal messages (oauth/verify.ts, http/route.ts, resources/oauth/) by what was wrong. */
const OAUTH_REFUSALS = new Map<string, OAuthRefusal>([
  [Message.missingConsumerKey, 'consumer_key'],
  [Message.invalidSignature, 'signature'],
  [Message.invalidTimestamp, 'timestamp'],
  [Message.nonceUsed, 'nonce'],
  [Message.invalidToken, 'token'],
  [Message.missingAccessToken, 'token'],
]);
const QUOTA_REFUSALS = new Map<string, QuotaWindow>([
  [Message.overQps, 'second'],
  [Message.overQpd, 'day'],
]);

/** Counts an OAuth refusal (401, or 400 for a missing access token) or a quota refusal (403) by its reason. */
function countRefusal(metrics: ServiceMetrics, error: unknown): void {
  if (!(error instanceof ApiError)) return;
  const oauth = error.statusCode === 401 || error.statusCode === 400 ? OAUTH_REFUSALS.get(error.message) : undefined;
  if (oauth) metrics.oauthRefused(oauth);
  const quota = error.statusCode === 403 ? QUOTA_REFUSALS.get(error.message) : undefined;
  if (quota) metrics.quotaRefused(quota);
}

/** Fastify's `genReqId`: a proxy's X-Request-Id when it is a plain token, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
}
