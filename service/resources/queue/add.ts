import { Message, QUEUE_LIMIT, rel, SubCode } from '../../../shared/protocol/index.ts';
import { splitQueue } from '../../../shared/pure/queue-order.ts';
import { ApiError } from '../../model/api-error.ts';
import { subscriber, type ServiceHandler } from '../../http/route.ts';
import { sendStatus } from '../../http/status.ts';
import { changeQueue } from '../../store/queue/queues.ts';
import type { QueueEntry } from '../../model/queue.ts';
import { link, titleLink } from '../../xml/links.ts';
import type { XmlElement } from '../../xml/node.ts';
import { etagHeader, expectedVersion, guarded, kindOf, renderEntries, requestedFormat } from './common.ts';
import { formatFor, placement } from '../shared/queue-placement.ts';
import { atHomeTitleIds } from '../../store/subscriber/history.ts';
import { expandRefs, type Candidate } from '../shared/expand-refs.ts';

type Failure = { candidate: Candidate; reason: 'unavailable' | 'too large' | 'at home' };

/**
 * POST `/users/UID/queues/{kind}`: adds `title_ref` (one or comma-separated) at `position` (end
 * when omitted); a title already queued is moved when a position is given. One transaction.
 */
export const addToQueue: ServiceHandler = async (svc, req, reply, ctx) => {
  const user = subscriber(ctx);
  const kind = kindOf(req);
  const p = ctx.params;
  const refs = p.requireList('title_ref');
  const positionRaw = p.get('position');
  let position: number | undefined;
  if (positionRaw !== undefined && positionRaw.trim() !== '') {
    if (!/^\d{1,9}$/.test(positionRaw.trim()) || Number(positionRaw) < 1) throw ApiError.invalid('position');
    position = Number(positionRaw);
  }
  const requested = requestedFormat(kind, p.get('format'));
  const expected = expectedVersion(req, ctx);
  const now = svc.now();
  const candidates = await expandRefs(svc.db, kind, refs);
  const single = candidates.length === 1;
  // A disc the subscriber has at home cannot be queued again until it is back.
  const atHome = new Set(kind === 'disc' ? await atHomeTitleIds(svc.db, user.id) : []);

  // Where each known title would go, decided outside the transaction (the catalog is read-only).
  const plan = new Map<Candidate, { format: string; saved: boolean } | null>();
  for (const c of candidates) {
    if (!c.title) {
      plan.set(c, null);
      continue;
    }
    const format = formatFor(kind, c.title, requested, user, now);
    const where = placement(c.title, format, now);
    plan.set(c, where && format ? { format, saved: where === 'saved' } : null);
  }

  const done = await guarded(() =>
    changeQueue(svc.db, user.id, kind, expected, (entries) => {
      const { available, saved } = splitQueue(entries);
      const created: number[] = [];
      const failed: Failure[] = [];
      const already: Candidate[] = [];
      let moves = 0;
      let next = position;
      const placeAvailable = (entry: QueueEntry) => {
        const index = next === undefined ? available.length : Math.min(next - 1, available.length);
        available.splice(index, 0, entry);
        if (next !== undefined) next = index + 2;
      };
      for (const c of candidates) {
        const target = plan.get(c);
        if (!c.title || !target) {
          failed.push({ candidate: c, reason: 'unavailable' });
          continue;
        }
        const id = c.title.id;
        if (atHome.has(id)) {
          failed.push({ candidate: c, reason: 'at home' });
          continue;
        }
        const at = available.findIndex((e) => e.title_id === id);
        const queued = at >= 0 ? available[at] : saved.find((e) => e.title_id === id);
        if (queued) {
          if (position === undefined || created.includes(id)) {
            already.push(c);
            continue;
          }
          if (queued.position === null) {
            if (single) throw new ApiError(400, Message.titleSaved, SubCode.titleSaved);
            already.push(c);
            continue;
          }
          available.splice(at, 1);
          placeAvailable({ ...queued, updated: now });
          created.push(id);
          moves++;
          continue;
        }
        if (kind === 'instant' && available.length + saved.length >= QUEUE_LIMIT) {
          failed.push({ candidate: c, reason: 'too large' });
          continue;
        }
        const entry: QueueEntry = {
          title_id: id,
          position: target.saved ? null : 0,
          format: target.format,
          added: now,
          updated: now,
        };
        if (target.saved) saved.push(entry);
        else placeAvailable(entry);
        created.push(id);
      }
      if (created.length === 0) {
        if (failed.length === 0) throw new ApiError(412, Message.alreadyInQueue, SubCode.alreadyInQueue);
        if (failed.every((f) => f.reason === 'too large'))
          throw new ApiError(400, Message.queueTooLarge, SubCode.queueTooLarge);
        if (failed.every((f) => f.reason === 'at home'))
          throw new ApiError(400, Message.titleAtHome, SubCode.titleAtHome);
        throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);
      }
      return { entries: [...available, ...saved], result: { created, failed, already, moves } };
    }),
  );

  const { created, failed, already, moves } = done.result;
  const createdEntries = created.map((id) => done.entries.find((e) => e.title_id === id)!);
  const known = new Map(candidates.flatMap((c) => (c.title ? [[c.title.id, c.title] as const] : [])));
  const items = await renderEntries(svc, ctx, user.id, kind, createdEntries, known);
  const partial = failed.length > 0 || already.length > 0;
  etagHeader(reply, done.version);
  return sendStatus(
    req,
    reply,
    201,
    partial ? Message.partialAdd : moves === created.length ? 'Move successful' : 'Resource created',
    {
      subCode: partial ? SubCode.partialAdd : undefined,
      etag: String(done.version),
      resourcesCreated: items,
      failedTitleRefs: partial ? failed.map((f) => refLink(svc.baseUrl, f.candidate)) : undefined,
      alreadyInQueue: partial ? already.map((c) => refLink(svc.baseUrl, c)) : undefined,
    },
  );
};

function refLink(base: string, c: Candidate): XmlElement {
  return c.title ? titleLink(base, c.title) : link(c.ref, rel.title, c.ref);
}
