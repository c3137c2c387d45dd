import type { FastifyReply, FastifyRequest } from 'fastify';
import { Message, QUEUE_LIMIT, SubCode, titleIdFromRef } from '../../../shared/protocol/index.ts';
import { splitQueue } from '../../../shared/pure/queue-order.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { subscriber, type RequestContext } from '../../http/route.ts';
import { sendStatus } from '../../http/status.ts';
import { getTitles } from '../../store/catalog/read.ts';
import { changeQueue } from '../../store/queue/queues.ts';
import type { QueueEntry } from '../../model/queue.ts';
import { etagHeader, expectedVersion, guarded, kindOf, requestedFormat } from './common.ts';
import { formatFor, placement } from '../shared/queue-placement.ts';

/**
 * Extension: PUT `/users/UID/queues/{kind}` replaces the whole available order with
 * `title_ref[1..n]` (and `format[n]` in the disc queue), all or nothing. Titles left out leave the
 * available part; the saved part is untouched. 304 when the order is already that.
 */
export async function replaceQueue(
  svc: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
): Promise<FastifyReply> {
  // A service started with `--no-bulk-replace` answers as if the method did not exist.
  if (!svc.bulkReplace) {
    reply.header('allow', 'GET, POST');
    throw new ApiError(405, Message.methodNotAllowed);
  }
  const user = subscriber(ctx);
  const kind = kindOf(req);
  const all = ctx.params.all();
  const indexed = all
    .map(([k, v]) => [/^title_ref\[(\d+)\]$/.exec(k), v] as const)
    .filter(([m]) => m !== null)
    .map(([m, v]) => ({ n: Number(m![1]), ref: v.trim() }))
    .sort((a, b) => a.n - b.n);
  const list =
    indexed.length > 0
      ? indexed
      : all
          .filter(([k]) => k === 'title_ref')
          .flatMap(([, v]) => v.split(','))
          .map((ref, i) => ({ n: i + 1, ref: ref.trim() }))
          .filter((r) => r.ref !== '');
  if (list.length === 0) throw ApiError.required('title_ref');
  if (new Set(list.map((r) => r.n)).size !== list.length) throw ApiError.invalid('title_ref');
  const formats = new Map(
    all
      .map(([k, v]) => [/^format\[(\d+)\]$/.exec(k)?.[1], v] as const)
      .filter(([n]) => n !== undefined)
      .map(([n, v]) => [Number(n), requestedFormat(kind, v)]),
  );
  const expected = expectedVersion(req, ctx);
  const now = svc.now();

  const ids = list.map((r) => titleIdFromRef(r.ref));
  if (ids.some((id) => id === null)) throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);
  if (new Set(ids).size !== ids.length) throw ApiError.invalid('title_ref');
  const titles = await getTitles(svc.db, ids as number[]);
  if (titles.size !== ids.length) throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);

  const done = await guarded(() =>
    changeQueue(svc.db, user.id, kind, expected, (entries) => {
      const byId = new Map(entries.map((e) => [e.title_id, e]));
      const { available: oldAvailable, saved } = splitQueue(entries);
      const available: QueueEntry[] = list.map((r, i) => {
        const id = ids[i]!;
        const t = titles.get(id)!;
        const current = byId.get(id);
        if (current && current.position === null) throw new ApiError(400, Message.titleSaved, SubCode.titleSaved);
        const format = formats.get(r.n) ?? current?.format ?? formatFor(kind, t, undefined, user, now);
        if (placement(t, format, now) !== 'available')
          throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);
        if (!current) return { title_id: id, position: 0, format: format!, added: now, updated: now };
        const moved = current.position !== i + 1 || current.format !== format;
        return moved ? { ...current, format: format!, updated: now } : current;
      });
      if (kind === 'instant' && available.length + saved.length > QUEUE_LIMIT)
        throw new ApiError(400, Message.queueTooLarge, SubCode.queueTooLarge);
      const unchanged =
        available.length === oldAvailable.length &&
        available.every((e, i) => e.title_id === oldAvailable[i]!.title_id && e.format === oldAvailable[i]!.format);
      return { entries: [...available, ...saved], result: null, changed: !unchanged };
    }),
  );
  etagHeader(reply, done.version);
  if (!done.changed) return reply.code(304).send();
  return sendStatus(req, reply, 200, 'Queue replaced', { etag: String(done.version) });
}
