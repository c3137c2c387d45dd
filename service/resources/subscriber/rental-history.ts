import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rel } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { checkStart, idSegment, pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber, type RequestContext, type ServiceHandler } from '../../http/route.ts';
import { getTitles } from '../../store/catalog/read.ts';
import {
  findRental,
  HISTORY_VIEWS,
  readHistory,
  type HistoryView,
  type Rental,
} from '../../store/subscriber/history.ts';
import type { User } from '../../model/user.ts';
import { atomFromList, toAtom } from '../../xml/atom.ts';
import { category, link, titleUrl } from '../../xml/links.ts';
import { el, textEl, type XmlElement } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { renderTitles } from '../shared/title-list.ts';
import { updatedMinOf } from '../shared/updated-min.ts';

type ItemView = Exclude<HistoryView, 'all'>;

export function historyUrl(base: string, userId: string, view: HistoryView = 'all'): string {
  return `${base}/users/${userId}/rental_history${view === 'all' ? '' : `/${view}`}`;
}

/** `…/rental_history/{shipped|returned|watched}/{title_id}`; in the whole history, by the rental's latest event. */
function itemUrl(base: string, userId: string, view: HistoryView, r: Rental): string {
  const kind: ItemView =
    view !== 'all' ? view : r.watched_date !== null ? 'watched' : r.returned_date !== null ? 'returned' : 'shipped';
  return `${historyUrl(base, userId, kind)}/${r.title_id}`;
}

/**
 * Title-bearing items for rentals, in order (rentals whose title vanished are skipped): an `id`
 * (from `idOf`; without one the title's own), a link to the title, the title's fields and links
 * (its `title_formats` category being the one format rented), then `dates` of the rental. Expansion works
 * as on any title.
 */
export async function renderRentals(
  svc: ServiceContext,
  ctx: RequestContext,
  rentals: readonly Rental[],
  name: string,
  dates: (r: Rental) => XmlElement[],
  idOf?: (r: Rental) => string,
): Promise<RenderedRental[]> {
  const map = await getTitles(
    svc.db,
    rentals.map((r) => r.title_id),
  );
  const present = rentals.filter((r) => map.has(r.title_id));
  const rendered = await renderTitles(
    svc,
    ctx,
    present.map((r) => map.get(r.title_id)!),
    name,
  );
  return present.map((r, i) => {
    const t = map.get(r.title_id)!;
    const own = (rendered[i]!.children ?? []).filter(
      (c) =>
        c.name !== 'id' && !(c.name === 'category' && String(c.attrs?.scheme).endsWith('/categories/title_formats')),
    );
    const element = el(
      name,
      null,
      textEl('id', idOf ? idOf(r) : titleUrl(svc.baseUrl, t)),
      idOf && link(titleUrl(svc.baseUrl, t), rel.title, t.title),
      own,
      category(svc.baseUrl, 'title_formats', r.format),
      dates(r),
    );
    return { rental: r, element };
  });
}

export interface RenderedRental {
  rental: Rental;
  element: XmlElement;
}

function historyDates(r: Rental): XmlElement[] {
  return [
    r.shipped_date !== null && textEl('shipped_date', r.shipped_date),
    r.returned_date !== null && textEl('returned_date', r.returned_date),
    r.watched_date !== null && textEl('watched_date', r.watched_date),
    r.viewed_time !== null && textEl('viewed_time', r.viewed_time),
  ].filter((x): x is XmlElement => x !== false);
}

/** Atom of a list whose items are `rendered`, in order; each entry dated by its rental's latest event. */
export function rentalAtom(
  root: XmlElement,
  rendered: readonly RenderedRental[],
  meta: { title: string; self: string; now: number },
): string {
  const feed = atomFromList(root, meta);
  // Every rendered item has an id, and nothing else in the list has: entries follow them one to one.
  feed.entries.forEach((e, i) => {
    const r = rendered[i]?.rental;
    if (r) e.updated = r.updated;
  });
  feed.updated = feed.entries.reduce((max, e) => Math.max(max, e.updated), 0) || meta.now;
  return toAtom(feed);
}

const FEED_TITLES: Record<HistoryView, string> = {
  all: 'rental history',
  shipped: 'rental history (shipped)',
  returned: 'rental history (returned)',
  watched: 'rental history (watched)',
};

/**
 * `/users/UID/rental_history` and its views `shipped` (disc rentals by shipped date), `returned`
 * (returned discs by return date) and `watched` (instant watches): newest first, `updated_min`,
 * paging; feeds (Atom on request, readable with the feed token). Each item's id resolves.
 */
export function registerRentalHistory(app: FastifyInstance, svc: ServiceContext): void {
  for (const view of HISTORY_VIEWS) {
    resource(app, svc, view === 'all' ? '/users/:uid/rental_history' : `/users/:uid/rental_history/${view}`, {
      GET: {
        auth: 'protected',
        user: true,
        feed: true,
        handler: (req, reply, ctx) => listHistory(svc, req, reply, ctx, view),
      },
    });
  }
  for (const view of HISTORY_VIEWS.filter((v): v is ItemView => v !== 'all')) {
    resource(app, svc, `/users/:uid/rental_history/${view}/:titleId`, {
      GET: {
        auth: 'protected',
        user: true,
        handler: async (req, reply, ctx) => {
          const user = subscriber(ctx);
          const titleId = idSegment((req.params as { titleId?: string }).titleId);
          const rental = await findRental(svc.db, user.id, view, titleId);
          if (!rental) throw ApiError.notFound();
          const [item] = await renderRentals(svc, ctx, [rental], 'rental_history_item', historyDates, (r) =>
            itemUrl(svc.baseUrl, user.id, view, r),
          );
          if (!item) throw ApiError.notFound();
          return represent(req, reply, item.element);
        },
      },
    });
  }
}

function listHistory(
  svc: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
  view: HistoryView,
): Promise<FastifyReply> {
  return listRentals(svc, req, reply, ctx, {
    view,
    name: 'rental_history',
    itemName: 'rental_history_item',
    dates: historyDates,
    of: (user) => ({
      self: historyUrl(svc.baseUrl, user.id, view),
      title: `${user.first_name}'s ${FEED_TITLES[view]}`,
      idOf: (r) => itemUrl(svc.baseUrl, user.id, view, r),
    }),
  });
}

/** A list of rentals: the rental history (or one of its views) or the discs at home. */
export interface RentalList {
  view: HistoryView | 'at_home';
  /** The element names of the list and of its items. */
  name: string;
  itemName: string;
  /** The dates each item ends with. */
  dates: (r: Rental) => XmlElement[];
  /** For the subscriber: the list's URL, its feed's title and the items' ids (default the titles' own). */
  of: (user: User) => { self: string; title: string; idOf?: (r: Rental) => string };
}

/** One page of a rental list (`updated_min`, paging): its url_template, pager and items; Atom on request. */
export const listRentals: ServiceHandler<[list: RentalList]> = async (svc, req, reply, ctx, list) => {
  const user = subscriber(ctx);
  const updatedMin = updatedMinOf(ctx);
  const paging = pagingOf(req, 500);
  const { total, rentals } = await readHistory(svc.db, user.id, list.view, { updatedMin, ...paging });
  checkStart(paging, total);
  const { self, title, idOf } = list.of(user);
  const rendered = await renderRentals(svc, ctx, rentals, list.itemName, list.dates, idOf);
  const root = el(
    list.name,
    null,
    textEl('url_template', `${self}?{-join|&|start_index|max_results|updated_min|expand}`),
    pagerElements(total, paging),
    rendered.map((x) => x.element),
  );
  return represent(req, reply, root, () => rentalAtom(root, rendered, { title, self, now: svc.now() }));
};
