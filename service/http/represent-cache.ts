import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { catalogGeneration } from '../store/catalog/generation.ts';
import { hashEtag, markContentEtag } from './etag.ts';
import { outputOf } from './params.ts';
import type { RequestContext } from './route.ts';

/** Bytes of rendered catalog representations a service keeps (least recently used dropped first). */
export const REPRESENTATION_CACHE_BYTES = 64 * 1024 * 1024;

interface Rendered {
  type: string;
  body: Buffer;
  etag: string;
}

type Handler = (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => Promise<unknown> | unknown;

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
    const cache = cacheOf(svc);
    const key = cacheKey(req, ctx, await catalogGeneration(svc.db));
    const hit = cache.get(key);
    if (hit) return sendRendered(reply, hit);
    pending.set(reply, { cache, key });
    return handler(req, reply, ctx);
  };
}

/** Called by `represent` with the bytes it is about to send: keeps them when the reply is cacheable. */
export function keepRendered(reply: FastifyReply, type: string, body: string): FastifyReply | undefined {
  const slot = pending.get(reply);
  if (!slot) return undefined;
  pending.delete(reply);
  if (reply.statusCode !== 200) return undefined; // a status body (an error thrown by the handler) is never kept
  const bytes = Buffer.from(body);
  const rendered = { type, body: bytes, etag: hashEtag(bytes) };
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
  const url = req.url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const params = ctx.params.all().filter(([k]) => !k.startsWith('oauth_')).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return `${generation} ${outputOf(req)} ${ctx.version} ${path}?${params.join('&')}`;
}

const pending = new WeakMap<FastifyReply, { cache: RenderedCache; key: string }>();
const caches = new WeakMap<ServiceContext, RenderedCache>();

function cacheOf(svc: ServiceContext): RenderedCache {
  let cache = caches.get(svc);
  if (!cache) {
    cache = new RenderedCache(REPRESENTATION_CACHE_BYTES);
    caches.set(svc, cache);
  }
  return cache;
}

/** A byte-bounded LRU of rendered representations. */
export class RenderedCache {
  private readonly entries = new Map<string, Rendered>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Rendered | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Rendered): void {
    const cost = value.body.length + key.length;
    if (cost > this.maxBytes / 16) return; // one big page must not flush everything else
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length + key.length;
    }
    this.entries.set(key, value);
    this.bytes += cost;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.body.length + oldKey.length;
    }
  }
}
