import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GzipCache } from './gzip-cache.ts';
import { requestedMethod } from './params.ts';

/**
 * Every response carries an ETag (the resource's own, e.g. a queue version, or a hash of the
 * bytes); a GET whose If-None-Match holds it is answered 304. Bodies are gzipped when the client
 * accepts it, and the compressed bytes are reused per ETag: compressing costs far more than serving.
 */
export function registerEtagAndGzip(app: FastifyInstance, gzipped: GzipCache): void {
  const rule = etagAndGzip(gzipped);
  // A callback hook, not an async one: the rule never waits, and a promise per response costs.
  app.addHook('onSend', (req, reply, payload, done) => {
    let out: unknown;
    try {
      out = rule(req, reply, payload);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, out);
  });
}

/** Bytes of compressed bodies a service keeps (`svc.gzipped`). */
export const GZIP_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The rule itself as an onSend hook. Without a cache every body is compressed afresh: that is how
 * it is applied by hand to the few replies Fastify makes outside any route, where no hook runs
 * (see `frameworkErrors` in status.ts).
 */
export function etagAndGzip(gzipped?: GzipCache) {
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
    const isStream = payload instanceof Readable;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload) && !isStream) return payload;
    let etag = reply.getHeader('etag') as string | undefined;
    // The bytes' own hash: the ETag unless the resource set its own (a queue's version). A cached
    // representation's ETag is that hash already (represent-cache.ts): not hashed again. With a
    // resource's own ETag it is computed only when it keys the compressed bytes below.
    let hash: string | undefined;
    const contentHash = () => (hash ??= etag && reply.contentEtag ? etag : hashEtag(payload as string | Buffer));
    if (!etag && !isStream) {
      const version = reply.statusCode === 200 ? reply.etagVersion : null;
      etag = version === null ? contentHash() : versionAndContent(version, contentHash());
      reply.header('etag', etag);
    }
    reply.header('vary', 'Accept-Encoding'); // on a 304 too (RFC 9110 §15.4.5)
    // A POST overridden to GET is a GET here as everywhere (CONTRACT §6); a GET overridden to DELETE is not.
    if (
      etag &&
      reply.statusCode === 200 &&
      requestedMethod(req) === 'GET' &&
      matches(req.headers['if-none-match'], etag)
    ) {
      if (isStream) payload.destroy();
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      // null, not '': Fastify gives a string payload a Content-Length (0 here), which RFC 9110
      // §8.6 forbids on a 304 unless it equals the 200's; with no payload it sends none.
      return null;
    }
    if (!acceptsGzip(req.headers['accept-encoding'])) return payload;
    reply.header('content-encoding', 'gzip');
    reply.removeHeader('content-length');
    if (isStream) return payload.pipe(createGzip());
    // Keyed by content, not by ETag: a resource's own ETag (a queue version) is shared by its
    // list, its entries and the status body of the write that made it.
    return gzipOnce(gzipped, contentHash(), String(reply.getHeader('content-type')), payload);
  };
}

/** The body gzipped, reused by content hash and type (the kept-GET path sends the same bytes). */
export function gzipOnce(gzipped: GzipCache | undefined, hash: string, type: string, payload: string | Buffer): Buffer {
  const key = `${hash} ${type}`;
  let body = gzipped?.get(key);
  if (!body) {
    body = gzipSync(payload, { level: 6 });
    gzipped?.set(key, body);
  }
  return body;
}

/**
 * Marks a reply as a representation of a versioned resource (a queue): its ETag becomes the
 * version and the bytes' hash, `"12-…"`. The version alone would keep a 304 answering old words
 * when the catalog (or the clock) changes what the queue shows; If-Match reads the version part.
 */
export function versionedEtag(reply: FastifyReply, version: number): FastifyReply {
  reply.etagVersion = version;
  return reply;
}

/** `"12-<hash>"` from a version and a quoted content hash. */
export function versionAndContent(version: number, quotedHash: string): string {
  return `"${version}-${quotedHash.slice(1, -1)}"`;
}

/** Says the reply's ETag header is the hash of its body (so the hook need not hash it again). */
export function markContentEtag(reply: FastifyReply): void {
  reply.contentEtag = true;
}

export function hashEtag(body: string | Buffer): string {
  return '"' + createHash('sha1').update(body).digest('base64url').slice(0, 22) + '"';
}

/** If-None-Match may list several tags, weak or strong (weak comparison per RFC 9110 §13.1.2). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const mine = bare(etag);
  return header.split(',').some((t) => bare(t) === mine);
}

export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...rest] = part.trim().split(';');
    if (coding?.trim().toLowerCase() !== 'gzip') return false;
    const q = rest.map((r) => r.trim()).find((r) => r.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * The version a write is conditional on, from If-Match (else the `etag` parameter a client that
 * cannot send headers uses): quoted, weak or bare, alone or as a representation's `12-<hash>`
 * (versionedEtag). undefined (also for `*`) means unconditional; a value that is no version is -1,
 * which no resource has, so the write is 412.
 */
export function ifMatchVersion(req: FastifyRequest, etagParam: string | undefined): number | undefined {
  const header = req.headers['if-match'];
  const raw = (typeof header === 'string' && header.trim() !== '' ? header : undefined) ?? etagParam;
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return undefined;
  const bare = raw
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  const version = /^(\d{1,15})(?:-[A-Za-z0-9_-]{1,64})?$/.exec(bare)?.[1];
  return version === undefined ? -1 : Number(version);
}

/** A resource version as its ETag header: quoted decimal (`"42"`), as a write's status body carries it. */
export function versionEtag(reply: FastifyReply, version: number): FastifyReply {
  return reply.header('etag', `"${version}"`);
}
