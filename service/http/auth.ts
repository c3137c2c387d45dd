import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import type { SignedRequest } from '../oauth/params.ts';
import { verifyRequest, type AuthContext, type AuthLevel } from '../oauth/verify.ts';
import { params } from './params.ts';

/**
 * The request as OAuth signs it: transport method (before any override), scheme + Host header +
 * path as sent (so absolute-form request lines and reverse proxies verify), query and form params.
 */
export function signedRequestOf(req: FastifyRequest): SignedRequest {
  const p = params(req);
  const url = req.raw.url ?? '/';
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  if (/^https?:\/\//i.test(path)) path = new URL(path).pathname; // absolute-form request target
  const auth = req.headers.authorization;
  return {
    method: req.method,
    scheme: req.protocol,
    host: req.headers.host ?? '',
    path,
    query: p.query,
    body: p.body,
    ...(auth ? { authorization: auth } : {}),
  };
}

export function authenticate(svc: ServiceContext, req: FastifyRequest, level: AuthLevel): Promise<AuthContext> {
  return verifyRequest(svc.db, signedRequestOf(req), level, { now: svc.now });
}
