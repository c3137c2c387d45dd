import type { FastifyRequest } from 'fastify';
import { Message, SubCode } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { ifMatchVersion, versionEtag } from '../../http/etag.ts';
import type { RequestContext } from '../../http/route.ts';
import { getTitles } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import { StaleQueueError } from '../../store/queue/queues.ts';
import { QUEUE_KINDS, type QueueEntry, type QueueKind } from '../../model/queue.ts';
import { queueItemElement } from '../../xml/queue.ts';
import type { XmlElement } from '../../xml/node.ts';
import { loadTitleExtras } from '../shared/title-extras.ts';
import { titleView } from '../shared/title-list.ts';
import { DISC_FORMATS } from '../shared/queue-placement.ts';

export function kindOf(req: FastifyRequest): QueueKind {
  const kind = (req.params as { kind?: string }).kind;
  if (!(QUEUE_KINDS as readonly string[]).includes(kind ?? '')) throw ApiError.notFound();
  return kind as QueueKind;
}

/** A queue write's If-Match version (http/etag.ts): undefined when unconditional. */
export function expectedVersion(req: FastifyRequest, ctx: RequestContext): number | undefined {
  return ifMatchVersion(req, ctx.params.get('etag'));
}

/** A queue's version as its ETag (http/etag.ts). */
export const etagHeader = versionEtag;

/** Runs a queue change, turning a stale version into the contract's 412. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StaleQueueError) throw new ApiError(412, Message.preconditionFailed);
    throw error;
  }
}

/** Validates a `format` parameter for a queue kind (400 sub 660 otherwise). */
export function requestedFormat(kind: QueueKind, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  if (kind === 'instant') {
    if (value.toLowerCase() === 'instant') return 'instant';
    throw new ApiError(400, Message.invalidFormat, SubCode.invalidFormat);
  }
  const match = DISC_FORMATS.find((f) => f.toLowerCase() === value.toLowerCase());
  if (!match) throw new ApiError(400, Message.invalidFormat, SubCode.invalidFormat);
  return match;
}

/** `queue_item` elements for entries in order (entries whose title vanished are skipped). */
export async function renderEntries(
  svc: ServiceContext,
  ctx: RequestContext,
  userId: string,
  kind: QueueKind,
  entries: QueueEntry[],
  titles?: Map<number, TitleRecord>,
): Promise<XmlElement[]> {
  const map =
    titles ??
    (await getTitles(
      svc.db,
      entries.map((e) => e.title_id),
    ));
  const present = entries.filter((e) => map.has(e.title_id));
  const view = titleView(svc, ctx);
  const extras = await loadTitleExtras(
    svc.db,
    present.map((e) => map.get(e.title_id)!),
    view.expand,
  );
  return present.map((e) => queueItemElement(map.get(e.title_id)!, extras.get(e.title_id)!, view, userId, kind, e));
}
