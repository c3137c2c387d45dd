import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { catalogGeneration } from '../store/catalog/generation.ts';
import { hashEtag, markContentEtag } from './etag.ts';
import type { ApiVersion } from '../../shared/protocol/index.ts';
import { outputOf, type Output } from './params.ts';
import type { Rendered } from './rendered-cache.ts';
import type { RequestContext } from './route.ts';

/** Bytes of rendered catalog representations a service keeps (`svc.representations`; least recently used dropped first). */
export const REPRESENTATION_CACHE_BYTES = 64 * 1024 * 1024;

type Handler = (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => unknown;

/**
 * Catalog representations are a function of the request (path, parameters other than OAuth's,
 * output, version) and the catalog generation: the first answer's bytes and ETag are kept and
 * served again until the catalog is reloaded, so a repeat GET, and a 304 (etag.ts compares the
 * kept ETag), builds nothing. The ETag stays the hash of the bytes: it changes exactly when the
 * representation does. `skip` names requests that depend on more (the clock: `available_now`).
 */
export function cachedCatalog(svc: ServiceContext, handler: Handler, skip?: (ctx: RequestContext) => boolean): Handler {
  return async (req, reply, ctx) => {
    if (skip?.(ctx)) return handler(req, reply, ctx);
    const cache = svc.representations;
    const key = cacheKey(req, ctx, await catalogGeneration(svc.db));
    const hit = cache.get(key);
    if (hit) return sendRendered(reply, hit);
    reply.renderSlot = { cache, key, level: ctx.keptLevel };
    return handler(req, reply, ctx);
  };
}

/** Called by `represent` with the bytes it is about to send: keeps them when the reply is cacheable. */
export function keepRendered(reply: FastifyReply, type: string, body: string): FastifyReply | undefined {
  const slot = reply.renderSlot;
  if (!slot) return undefined;
  reply.renderSlot = null;
  if (reply.statusCode !== 200) return undefined; // a status body (an error thrown by the handler) is never kept
  const bytes = Buffer.from(body);
  const rendered = {
    type,
    body: bytes,
    etag: hashEtag(bytes),
    level: slot.level,
    route: reply.request.routeOptions.url,
  };
  slot.cache.set(slot.key, rendered);
  return sendRendered(reply, rendered);
}

function sendRendered(reply: FastifyReply, r: Rendered): FastifyReply {
  reply.header('etag', r.etag);
  markContentEtag(reply);
  return reply.type(r.type).send(r.body);
}

/** The request as a cache key: generation, output, version, path and every parameter but OAuth's. */
export function cacheKey(req: FastifyRequest, ctx: RequestContext, generation: number): string {
  return representationKey(generation, outputOf(req), ctx.version, req.url, ctx.params.all());
}

/** `cacheKey` from its parts: the kept-GET path (kept-get.ts) computes it without a Fastify request. */
export function representationKey(
  generation: number,
  output: Output,
  version: ApiVersion,
  url: string,
  pairs: ReadonlyArray<readonly [string, string]>,
): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let params = '';
  for (const [k, v] of pairs) {
    if (k.startsWith('oauth_')) continue;
    params += `${params === '' ? '' : '&'}${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
  }
  return `${generation} ${output} ${version} ${path}?${params}`;
}
