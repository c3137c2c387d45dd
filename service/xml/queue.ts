import { rel, SCHEMA_BASE } from '../../shared/protocol/index.ts';
import type { Paging } from '../model/paging.ts';
import type { TitleRecord } from '../model/title.ts';
import type { QueueEntry, QueueKind } from '../model/queue.ts';
import { category, link, titleUrl } from './links.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { pagerElements } from './pager.ts';
import { catalogTitle, type TitleExtras, type TitleView } from './title.ts';

export type QueueView = 'all' | 'available' | 'saved';

export const queueRel = {
  instant: `${SCHEMA_BASE}queues.instant`,
  disc: `${SCHEMA_BASE}queues.disc`,
  available: `${SCHEMA_BASE}queues.available`,
  saved: `${SCHEMA_BASE}queues.saved`,
} as const;

export function queuesUrl(base: string, userId: string): string {
  return `${base}/users/${userId}/queues`;
}

export function queueUrl(base: string, userId: string, kind: QueueKind, view: QueueView = 'all'): string {
  return `${queuesUrl(base, userId)}/${kind}${view === 'all' ? '' : `/${view}`}`;
}

/** `…/available/{position}/{title_id}`, or `…/saved/{title_id}` for a saved entry. */
export function queueItemUrl(
  base: string,
  userId: string,
  kind: QueueKind,
  e: Pick<QueueEntry, 'position' | 'title_id'>,
): string {
  return e.position === null
    ? `${queueUrl(base, userId, kind, 'saved')}/${e.title_id}`
    : `${queueUrl(base, userId, kind, 'available')}/${e.position}/${e.title_id}`;
}

/** `/users/UID/queues`: a link to each queue. */
export function queuesElement(base: string, userId: string): XmlElement {
  return el(
    'resource',
    null,
    link(queueUrl(base, userId, 'disc'), queueRel.disc, 'disc queue'),
    link(queueUrl(base, userId, 'instant'), queueRel.instant, 'instant queue'),
  );
}

function viewLinks(base: string, userId: string, kind: QueueKind): XmlElement[] {
  return [
    link(queueUrl(base, userId, kind, 'available'), queueRel.available, 'available queue'),
    link(queueUrl(base, userId, kind, 'saved'), queueRel.saved, 'saved queue'),
  ];
}

/** The `queue_availability` term of an entry at `now`. */
export function queueAvailability(t: TitleRecord, e: QueueEntry, now: number): string {
  if (e.position === null) return 'saved';
  const window = t.formats.find((f) => f.format === e.format);
  if (window && window.available_from > now) return 'awaiting release';
  if (window && window.available_until !== null)
    return `available until ${new Date(window.available_until * 1000).toISOString().slice(0, 10)}`;
  return 'available now';
}

/**
 * A `queue_item`: id, position (available entries only), updated, a link to its part of the queue
 * and to the title, then the title's own fields and links; its categories are the title's
 * ratings and genres, its `queue_availability` and the entry's one `title_formats`.
 */
export function queueItemElement(
  t: TitleRecord,
  x: TitleExtras,
  view: TitleView,
  userId: string,
  kind: QueueKind,
  e: QueueEntry,
): XmlElement {
  const { base } = view;
  const title = catalogTitle(t, x, view, 'queue_item');
  const own = (title.children ?? []).filter(
    (c) => c.name !== 'id' && !(c.name === 'category' && String(c.attrs?.scheme).endsWith('/categories/title_formats')),
  );
  const availability = queueAvailability(t, e, view.now);
  return el(
    'queue_item',
    null,
    textEl('id', queueItemUrl(base, userId, kind, e)),
    e.position !== null && textEl('position', e.position),
    textEl('updated', e.updated),
    e.position === null
      ? link(queueUrl(base, userId, kind, 'saved'), queueRel.saved, 'saved queue')
      : link(queueUrl(base, userId, kind, 'available'), queueRel.available, 'available queue'),
    link(titleUrl(base, t), rel.title, t.title),
    own,
    category(base, 'queue_availability', availability),
    category(base, 'title_formats', e.format),
  );
}

export interface QueuePage {
  userId: string;
  kind: QueueKind;
  view: QueueView;
  version: number;
  total: number;
  paging: Paging;
  items: XmlElement[];
}

/** A `queue`: exactly url_template, the pager, etag, links to its views, then the items. */
export function queueElement(base: string, page: QueuePage): XmlElement {
  return el(
    'queue',
    null,
    textEl(
      'url_template',
      `${queueUrl(base, page.userId, page.kind, page.view)}?{-join|&|sort|start_index|max_results|updated_min|expand}`,
    ),
    pagerElements(page.total, page.paging),
    textEl('etag', page.version),
    viewLinks(base, page.userId, page.kind),
    page.items,
  );
}
