import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Message, SubCode } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { checkStart, idSegment, pagingOf } from '../../http/params.ts';
import { render, represent } from '../../http/represent.ts';
import { resource, subscriber, type RequestContext, type ServiceHandler } from '../../http/route.ts';
import { sendStatus } from '../../http/status.ts';
import { versionedEtag } from '../../http/etag.ts';
import { getTitles } from '../../store/catalog/read.ts';
import { changeQueue, queueOrder, readQueue, subscriberQueueVersion } from '../../store/queue/queues.ts';
import type { QueueEntry } from '../../model/queue.ts';
import type { TitleRecord } from '../../model/title.ts';
import { atomFromList, toAtom } from '../../xml/atom.ts';
import { queueElement, queuesElement, queueUrl, type QueueView } from '../../xml/queue.ts';
import { addToQueue } from './add.ts';
import { etagHeader, expectedVersion, guarded, kindOf, renderEntries } from './common.ts';
import { keepPage, queuePageKey, sendKeptPage, stableWindow } from './pages.ts';
import { replaceQueue } from './replace.ts';
import { updatedMinOf } from '../shared/updated-min.ts';

const SORTS = ['queue_sequence', 'date_added', 'alphabetical'] as const;
type Sort = (typeof SORTS)[number];

/** The subscriber's queues (CONTRACT.md §3): lists, entries, adds, moves, removals, bulk replace. */
export function registerQueues(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/queues', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => represent(req, reply, queuesElement(svc.baseUrl, subscriber(ctx).id)),
    },
  });
  resource(app, svc, '/users/:uid/queues/:kind', {
    GET: {
      auth: 'protected',
      user: true,
      feed: true,
      handler: (req, reply, ctx) => listQueue(svc, req, reply, ctx, 'all'),
    },
    POST: { auth: 'protected', user: true, handler: (req, reply, ctx) => addToQueue(svc, req, reply, ctx) },
    PUT: { auth: 'protected', user: true, handler: (req, reply, ctx) => replaceQueue(svc, req, reply, ctx) },
  });
  for (const view of ['available', 'saved'] as const) {
    resource(app, svc, `/users/:uid/queues/:kind/${view}`, {
      GET: {
        auth: 'protected',
        user: true,
        feed: true,
        handler: (req, reply, ctx) => listQueue(svc, req, reply, ctx, view),
      },
    });
    resource(app, svc, `/users/:uid/queues/:kind/${view}/:titleId`, entryOperations(svc, view));
  }
  resource(app, svc, '/users/:uid/queues/:kind/available/:position/:titleId', entryOperations(svc, 'available'));
}

const listQueue: ServiceHandler<[view: QueueView]> = async (svc, req, reply, ctx, view) => {
  const user = subscriber(ctx);
  const kind = kindOf(req);
  const sort = (ctx.params.get('sort') ?? 'queue_sequence') as Sort;
  if (!SORTS.includes(sort)) throw ApiError.invalid('sort');
  const updatedMin = updatedMinOf(ctx);
  const paging = pagingOf(req, 500);

  const key = await queuePageKey(svc, req, ctx);
  if (key) {
    const kept = sendKeptPage(svc, reply, key, await subscriberQueueVersion(svc.db, user, kind), svc.now());
    if (kept) return kept;
  }
  const state = await readQueue(svc.db, user.id, kind);
  let entries = state.entries.filter((e) =>
    view === 'all' ? true : view === 'available' ? e.position !== null : e.position === null,
  );
  if (updatedMin !== undefined) entries = entries.filter((e) => e.updated >= updatedMin);
  let titles: Map<number, TitleRecord> | undefined;
  if (sort === 'date_added') entries = [...entries].sort((a, b) => b.added - a.added || queueOrder(a, b));
  if (sort === 'alphabetical') {
    titles = await getTitles(
      svc.db,
      entries.map((e) => e.title_id),
    );
    const name = (e: QueueEntry) => titles!.get(e.title_id)?.title ?? '';
    entries = [...entries].sort((a, b) => name(a).localeCompare(name(b)) || queueOrder(a, b));
  }
  checkStart(paging, entries.length);
  const page = entries.slice(paging.start, paging.start + paging.max);
  const renderedAt = svc.now();
  const items = await renderEntries(svc, ctx, user.id, kind, page, titles);
  versionedEtag(reply, state.version);
  const root = queueElement(svc.baseUrl, {
    userId: user.id,
    kind,
    view,
    version: state.version,
    total: entries.length,
    paging,
    items,
  });
  const self = queueUrl(svc.baseUrl, user.id, kind, view);
  const title = `${user.first_name}'s ${kind} queue${view === 'all' ? '' : ` (${view})`}`;
  const { type, body } = render(req, root, () => toAtom(atomFromList(root, { title, self, now: svc.now() })));
  // Kept only when one clock reading rendered the whole page (the window is computed for it).
  if (key && svc.now() === renderedAt)
    keepPage(svc, key, {
      version: state.version,
      type,
      body,
      ...stableWindow(
        page,
        await getTitles(
          svc.db,
          page.map((e) => e.title_id),
        ),
        renderedAt,
      ),
    });
  return reply.type(type).send(body);
};

/** GET and DELETE of one entry, by `…/available/{position}/{id}`, `…/available/{id}` or `…/saved/{id}`. */
function entryOperations(svc: ServiceContext, part: 'available' | 'saved') {
  /** The subscriber, the queue and the title the URL names, checked in that order. */
  const target = (req: FastifyRequest, ctx: RequestContext) => {
    const user = subscriber(ctx);
    const kind = kindOf(req);
    const p = req.params as { titleId?: string; position?: string };
    if (p.position !== undefined) idSegment(p.position);
    return { user, kind, titleId: idSegment(p.titleId) };
  };
  /** The title's entry in this part of the queue (404 when it is not there). */
  const entryOf = (entries: readonly QueueEntry[], titleId: number): QueueEntry => {
    const entry = entries.find(
      (e) => e.title_id === titleId && (part === 'saved' ? e.position === null : e.position !== null),
    );
    if (!entry) throw ApiError.notFound(Message.titleNotInQueue, SubCode.titleNotInQueue);
    return entry;
  };
  return {
    GET: {
      auth: 'protected' as const,
      user: true as const,
      handler: async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => {
        const { user, kind, titleId } = target(req, ctx);
        const state = await readQueue(svc.db, user.id, kind);
        const [item] = await renderEntries(svc, ctx, user.id, kind, [entryOf(state.entries, titleId)]);
        if (!item) throw ApiError.notFound();
        versionedEtag(reply, state.version);
        return represent(req, reply, item);
      },
    },
    DELETE: {
      auth: 'protected' as const,
      user: true as const,
      handler: async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => {
        const { user, kind, titleId } = target(req, ctx);
        const expected = expectedVersion(req, ctx);
        const done = await guarded(() =>
          changeQueue(svc.db, user.id, kind, expected, (entries) => {
            const entry = entryOf(entries, titleId);
            return { entries: entries.filter((e) => e !== entry), result: entry };
          }),
        );
        etagHeader(reply, done.version);
        return sendStatus(req, reply, 200, 'Title deleted from queue', { etag: String(done.version) });
      },
    },
  };
}
