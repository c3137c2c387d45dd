import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { resource, subscriber, type RequestContext } from '../../http/route.ts';
import { changeSpan, changesToReplay } from '../../store/changes/read.ts';
import { eventText } from './events.ts';
import { STREAM_RETRY_AFTER_SECONDS, type ChangeHub } from './hub.ts';
import { ChangeStream } from './stream.ts';

/** What a client waits before reconnecting after a dropped stream (the `retry:` field). */
const RETRY_MS = 3_000;
/** Resumes within this many seconds of a change see it again (late commits on PostgreSQL, store/changes/read.ts). */
const REPLAY_OVERLAP_SECONDS = 10;
/** Events a resume replays at most; a client further behind gets a reset and reads afresh. */
const REPLAY_MAX = 5_000;

/**
 * `GET /users/UID/changes` (an extension): a Server-Sent Events stream of the subscriber's changes
 * (queues, title states, ratings) and the catalog's, each event numbered so `Last-Event-ID`
 * resumes it. Signed and checked like any protected resource, and charged once when it opens.
 */
export function registerChanges(app: FastifyInstance, svc: ServiceContext, hub: ChangeHub): void {
  resource(app, svc, '/users/:uid/changes', {
    GET: {
      auth: 'protected',
      user: true,
      handler: (req, reply, ctx) => openStream(svc, hub, req, reply, ctx),
    },
  });
}

async function openStream(
  svc: ServiceContext,
  hub: ChangeHub,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
): Promise<void> {
  const user = subscriber(ctx);
  const consumerKey = ctx.auth!.consumer.key;
  const resumeFrom = lastEventIdOf(req, ctx);
  try {
    hub.admit(user.id, consumerKey);
  } catch (error) {
    reply.header('retry-after', String(STREAM_RETRY_AFTER_SECONDS));
    throw error;
  }
  await hub.position(); // the feed reads from here on before the stream counts on it
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  const stream = new ChangeStream(user.id, consumerKey, ctx.auth!.token!.token, res, hub.limits.maxBufferedBytes);
  hub.add(stream);
  res.on('close', () => hub.remove(stream));
  stream.write(`retry: ${RETRY_MS}\n\n`);
  try {
    const readyId = resumeFrom === undefined ? await hub.position() : await replay(svc, hub, stream, resumeFrom);
    stream.write(eventText(readyId, 'ready', { heartbeat_seconds: hub.limits.heartbeatMs / 1000 }));
    stream.caughtUp();
  } catch {
    stream.end(); // the store failed mid-replay: the client reconnects with the same Last-Event-ID
  }
}

/**
 * Sends what happened after `from` (and in the last seconds), or a `reset` when the table no longer
 * holds it (pruned, or another database's number); answers the id the `ready` event carries.
 */
async function replay(svc: ServiceContext, hub: ChangeHub, stream: ChangeStream, from: number): Promise<number> {
  const position = await hub.position();
  const span = await changeSpan(svc.db);
  const rows =
    from > Math.max(span.newest, position) || (span.oldest > 0 && from < span.oldest - 1)
      ? undefined
      : await changesToReplay(svc.db, stream.userId, from, svc.now() - REPLAY_OVERLAP_SECONDS, REPLAY_MAX);
  if (!rows || rows.length === REPLAY_MAX) {
    const at = Math.max(span.newest, position);
    stream.replay(at, eventText(undefined, 'reset', { message: 'Some changes are no longer kept: read again' }));
    return at;
  }
  for (const event of await hub.replayEvents(rows)) stream.replay(event.seq, event.text);
  return Math.max(from, position, rows.at(-1)?.seq ?? 0);
}

/** `Last-Event-ID` (or the `last_event_id` parameter, for clients that cannot set headers). */
function lastEventIdOf(req: FastifyRequest, ctx: RequestContext): number | undefined {
  const header = req.headers['last-event-id'];
  const raw = (typeof header === 'string' ? header : undefined) ?? ctx.params.get('last_event_id');
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw ApiError.invalid('Last-Event-ID');
  return Number(raw.trim());
}
