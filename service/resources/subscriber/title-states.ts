import type { FastifyInstance } from 'fastify';
import { rel, SCHEMA_BASE, titleIdFromRef } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber } from '../../http/route.ts';
import { getTitles } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import { readQueue } from '../../store/queue/queues.ts';
import { QUEUE_KINDS, type QueueEntry, type QueueKind } from '../../model/queue.ts';
import type { User } from '../../model/user.ts';
import { category, link, titleUrl } from '../../xml/links.ts';
import { el, textEl, type XmlElement } from '../../xml/node.ts';
import { queueItemUrl, queueRel, queueUrl } from '../../xml/queue.ts';
import { expandRefs } from '../shared/expand-refs.ts';
import { DISC_FORMATS, formatFor, placement } from '../shared/queue-placement.ts';
import { titlesOfRefs } from './ratings.ts';
import { atHomeTitleIds } from '../../store/subscriber/history.ts';

/** rel of a title_state_item's link when the title is queued: it names the queue entry. */
export const queueEntryRel: Record<QueueKind, string> = {
  instant: `${SCHEMA_BASE}queues.instant.item`,
  disc: `${SCHEMA_BASE}queues.disc.item`,
};

/**
 * `/users/UID/title_states?title_refs=…`: for each requested ref, what the subscriber can do with
 * the title in each queue (HISTORICAL-REFERENCE §4.12): one `title_state` per ref, holding a
 * `title_state_item` per queue (instant, then disc), each with one `format` whose categories are
 * the format (`title_formats`) and the states (`title_states`): `In Queue` or `Saved` when queued,
 * `Play` when it streams now for this subscriber, `Add` when it could be queued, `At Home` when a
 * disc of it is at the subscriber's home.
 */
export function registerTitleStates(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/title_states', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const { refs } = await titlesOfRefs(svc, ctx.params);
        const now = svc.now();
        const [titles, queues, expanded, atHome] = await Promise.all([
          getTitles(
            svc.db,
            refs.map(titleIdFromRef).filter((id): id is number => id !== null),
          ),
          Promise.all(QUEUE_KINDS.map((kind) => readQueue(svc.db, user.id, kind))),
          Promise.all(QUEUE_KINDS.map((kind) => expandRefs(svc.db, kind, refs))),
          atHomeTitleIds(svc.db, user.id).then((ids) => new Set(ids)),
        ]);
        const states = refs.map((ref) => {
          const id = titleIdFromRef(ref);
          const title = id === null ? undefined : titles.get(id);
          if (!title) return el('title_state', null, link(ref, rel.title, ref));
          return el(
            'title_state',
            null,
            link(titleUrl(svc.baseUrl, title), rel.title, title.title),
            QUEUE_KINDS.map((kind, i) => {
              // What adding the ref to this queue would add (a series: its seasons; discs: the set).
              const members = expanded[i]!.filter((c) => c.ref === ref && c.title).map((c) => c.title!);
              return stateItem(
                svc.baseUrl,
                user,
                kind,
                title,
                members.length > 0 ? members : [title],
                queues[i]!.entries,
                now,
                atHome,
              );
            }),
          );
        });
        return represent(
          req,
          reply,
          el(
            'title_states',
            null,
            textEl('url_template', `${svc.baseUrl}/users/${user.id}/title_states?{-join|&|title_refs}`),
            states,
          ),
        );
      },
    },
  });
}

function stateItem(
  base: string,
  user: User,
  kind: QueueKind,
  title: TitleRecord,
  members: TitleRecord[],
  entries: QueueEntry[],
  now: number,
  atHome: ReadonlySet<number>,
): XmlElement {
  const entry = entries.find((e) => members.some((m) => m.id === e.title_id) || e.title_id === title.id);
  const queueLink = entry
    ? link(queueItemUrl(base, user.id, kind, entry), queueEntryRel[kind], `${kind} queue`)
    : link(queueUrl(base, user.id, kind), queueRel[kind], `${kind} queue`);
  const preferredDisc =
    (JSON.parse(user.preferred_formats) as string[]).find((f) => (DISC_FORMATS as readonly string[]).includes(f)) ??
    DISC_FORMATS[0];
  const format =
    entry?.format ??
    members.map((m) => formatFor(kind, m, undefined, user, now)).find((f) => f !== undefined) ??
    (kind === 'instant' ? 'instant' : preferredDisc);

  const states: string[] = [];
  if (entry) states.push(entry.position === null ? 'Saved' : 'In Queue');
  if (kind === 'instant' && user.can_instant_watch && [title, ...members].some((t) => streamsNow(t, now)))
    states.push('Play');
  // A disc of the title shipped and not yet returned: it cannot be queued until it is back (400 sub 690).
  const home = kind === 'disc' && [title, ...members].some((t) => atHome.has(t.id));
  if (!entry && !home && members.some((m) => placement(m, formatFor(kind, m, undefined, user, now), now) !== null))
    states.push('Add');
  if (home) states.push('At Home');
  return el(
    'title_state_item',
    null,
    queueLink,
    el(
      'format',
      null,
      kind === 'disc' && format === preferredDisc && textEl('preferred_format', 'true'),
      category(base, 'title_formats', format),
      states.map((s) => category(base, 'title_states', s)),
    ),
  );
}

function streamsNow(t: TitleRecord, now: number): boolean {
  return t.formats.some(
    (f) => f.format === 'instant' && f.available_from <= now && (f.available_until === null || f.available_until > now),
  );
}
