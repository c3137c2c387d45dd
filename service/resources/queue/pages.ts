import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { outputOf } from '../../http/params.ts';
import { cacheKey } from '../../http/represent-cache.ts';
import type { RequestContext } from '../../http/route.ts';
import type { TitleRecord } from '../../model/title.ts';
import { catalogGeneration } from '../../store/catalog/generation.ts';
import type { QueueEntry } from '../../model/queue.ts';
import { hashEtag, markContentEtag, versionAndContent } from '../../http/etag.ts';
import type { KeptPage } from '../../http/rendered-cache.ts';

/** Rendered queue pages a service keeps in `svc.queuePages` (least recently used dropped first). */
export const QUEUE_PAGES_KEPT = 2_000;

/**
 * A queue page is a function of the request (path, parameters, output, API version), the queue's
 * version (bumped by every change, store/queue/queues.ts), the catalog generation and the clock only
 * through titles awaiting release. Kept in `svc.queuePages` per request key with the version it was
 * rendered at, so a repeat GET reads the version (one indexed row) and sends the kept bytes. Atom
 * (its `updated` is the clock) is never kept. The ETag is the version and the bytes' hash, kept with
 * the bytes. This is the key of the request, or undefined when its representation is never kept.
 */
export async function queuePageKey(
  svc: ServiceContext,
  req: FastifyRequest,
  ctx: RequestContext,
): Promise<string | undefined> {
  if (outputOf(req) === 'atom') return undefined;
  return cacheKey(req, ctx, await catalogGeneration(svc.db));
}

/** Keeps a rendered page as bytes with its ETag, `"12-<hash>"`, hashed here once rather than on every repeat GET. */
export function keepPage(
  svc: ServiceContext,
  key: string,
  page: Omit<KeptPage, 'etag' | 'body'> & { body: string },
): void {
  const body = Buffer.from(page.body);
  svc.queuePages.keep(key, { ...page, body, etag: versionAndContent(page.version, hashEtag(body)) });
}

/** Sends the kept page when it was rendered at `version` and is still valid at `now`. */
export function sendKeptPage(
  svc: ServiceContext,
  reply: FastifyReply,
  key: string,
  version: number,
  now: number,
): FastifyReply | undefined {
  const page = svc.queuePages.get(key, version, now);
  if (!page) return undefined;
  reply.header('etag', page.etag);
  // The ETag is the bytes' own (with the version): the ETag hook neither hashes them nor keys gzip anew.
  markContentEtag(reply);
  return reply.type(page.type).send(page.body);
}

/**
 * The span of the clock around `now` (seconds) in which the shown entries' `queue_availability`
 * stays what it is at `now`: an available entry reads 'awaiting release' before its window opens.
 */
export function stableWindow(
  entries: readonly QueueEntry[],
  titles: ReadonlyMap<number, TitleRecord>,
  now: number,
): { validFrom: number; validUntil: number } {
  let validFrom = -Infinity;
  let validUntil = Infinity;
  for (const e of entries) {
    const window = e.position === null ? undefined : titles.get(e.title_id)?.formats.find((f) => f.format === e.format);
    if (!window) continue;
    if (window.available_from > now) validUntil = Math.min(validUntil, window.available_from);
    else validFrom = Math.max(validFrom, window.available_from);
  }
  return { validFrom, validUntil };
}
