import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import type { SignedRequest } from '../oauth/params.ts';
import { verifyRequest, type AuthContext, type AuthLevel, type VerifierStore } from '../oauth/verify.ts';
import type { Db } from '../store/db.ts';
import { cachedConsumer } from '../store/oauth/consumer-cache.ts';
import { findAccessTokenAndUser } from '../store/oauth/tokens.ts';
import { params, type Params } from './params.ts';
import { budgetOf } from './quota-budget.ts';

/**
 * The request as OAuth signs it: transport method (before any override), scheme + Host header +
 * path as sent (so absolute-form request lines and reverse proxies verify), query and form params.
 */
export function signedRequestOf(req: FastifyRequest): SignedRequest {
  return signedRequestFrom(req.method, req.protocol, req.raw.url ?? '/', req.headers, params(req));
}

/** `signedRequestOf` from the transport's parts: the kept-GET path (kept-get.ts) has no Fastify request. */
export function signedRequestFrom(
  method: string,
  scheme: string,
  url: string,
  headers: IncomingHttpHeaders,
  p: Params,
): SignedRequest {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  if (/^https?:\/\//i.test(path)) path = new URL(path).pathname; // absolute-form request target
  const auth = headers.authorization;
  return {
    method,
    scheme,
    host: headers.host ?? '',
    path,
    query: p.query,
    body: p.body,
    ...(auth ? { authorization: auth } : {}),
  };
}

export function authenticate(svc: ServiceContext, req: FastifyRequest, level: AuthLevel): Promise<AuthContext> {
  return verifyRequest(svc.verifier, signedRequestOf(req), level, { now: svc.now });
}

/**
 * The verifier on this database: consumers through the short-lived cache, access tokens that exist
 * and are not revoked, and the guard, which claims the nonce and charges the consumer's budget.
 */
export function storeVerifier(db: Db): VerifierStore {
  return {
    consumer: (key) => cachedConsumer(db, key),
    accessTokens: async (token) => {
      const found = await findAccessTokenAndUser(db, token);
      if (!found || found.token.revoked) return null;
      const { token: row, user } = found;
      return { secret: row.secret, consumerKey: row.consumer_key, userId: row.user_id, ...(user ? { user } : {}) };
    },
    admit: (claim, consumer, now) => db.guard.admit(claim, budgetOf(consumer).perSecond, now),
  };
}
