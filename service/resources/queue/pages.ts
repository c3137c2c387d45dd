import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { outputOf } from '../../http/params.ts';
import { cacheKey } from '../../http/represent-cache.ts';
import type { RequestContext } from '../../http/route.ts';
import type { TitleRecord } from '../../model/title.ts';
import { catalogGeneration } from '../../store/catalog/generation.ts';
import type { QueueEntry } from '../../model/queue.ts';
import { etagHeader } from './common.ts';

/** Rendered queue pages a service keeps (least recently used dropped first). */
export const QUEUE_PAGES_KEPT = 2_000;

interface KeptPage {
  version: number;
  type: string;
  body: string;
  /** The clock (seconds) within which every entry's `queue_availability` stays as rendered. */
  validFrom: number;
  validUntil: number;
}

/**
 * A queue page is a function of the request (path, parameters, output, API version), the queue's
 * version (bumped by every change, store/queues.ts), the catalog generation and the clock only
 * through titles awaiting release. Kept per request key with the version it was rendered at, so a
 * repeat GET reads the version (one indexed row) and sends the kept bytes. Atom (its `updated` is
 * the clock) is never kept. The ETag stays the queue version.
 */
export class QueuePages {
  private readonly pages = new Map<string, KeptPage>();

  static of(svc: ServiceContext): QueuePages {
    let pages = all.get(svc);
    if (!pages) {
      pages = new QueuePages();
      all.set(svc, pages);
    }
    return pages;
  }

  /** The key of this request, or undefined when its representation is never kept. */
  async keyOf(svc: ServiceContext, req: FastifyRequest, ctx: RequestContext): Promise<string | undefined> {
    if (outputOf(req) === 'atom') return undefined;
    return cacheKey(req, ctx, await catalogGeneration(svc.db));
  }

  /** Sends the kept page when it was rendered at `version` and is still valid at `now`. */
  sendKept(reply: FastifyReply, key: string, version: number, now: number): FastifyReply | undefined {
    const page = this.pages.get(key);
    if (!page || page.version !== version || now < page.validFrom || now >= page.validUntil) return undefined;
    this.pages.delete(key);
    this.pages.set(key, page);
    etagHeader(reply, version);
    return reply.type(page.type).send(page.body);
  }

  keep(key: string, page: KeptPage): void {
    this.pages.delete(key);
    this.pages.set(key, page);
    if (this.pages.size > QUEUE_PAGES_KEPT) this.pages.delete(this.pages.keys().next().value!);
  }
}

const all = new WeakMap<ServiceContext, QueuePages>();

/**
 * The span of the clock around `now` (seconds) in which the shown entries' `queue_availability`
 * stays what it is at `now`: an available entry reads 'awaiting release' before its window opens.
 */
export function stableWindow(entries: readonly QueueEntry[], titles: ReadonlyMap<number, TitleRecord>, now: number): { validFrom: number; validUntil: number } {
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
