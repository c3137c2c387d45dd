import { rel } from '../../../shared/protocol/rels.ts';
import type {
  Page,
  Queue,
  QueueItem,
  QueueKind,
  QueueView,
  Rating,
  Recommendation,
  RentalItem,
  TitleState,
  UserRating,
} from '../../../shared/models.ts';
import {
  attr,
  categories,
  child,
  etagFromHeader,
  kids,
  links,
  num,
  pageOf,
  parseRoot,
  text,
  type XNode,
} from './parse.ts';
import { titleSummary } from './titles.ts';

/** A subscriber's collections → models: queues, ratings, recommendations, rental history, title states. */

/** A `queue_item`: its own URL, position, the title's fields, its availability and its one format. */
export function queueItem(node: XNode): QueueItem {
  const summary = titleSummary(node);
  const cats = categories(node);
  const format = cats.find((c) => c.schemeName === 'title_formats')?.term ?? summary.formats[0] ?? '';
  return {
    ...summary,
    formats: format ? [format] : summary.formats,
    itemRef: text(node, 'id') ?? '',
    position: num(text(node, 'position')),
    updated: num(text(node, 'updated')) ?? 0,
    availability: cats.find((c) => c.schemeName === 'queue_availability')?.term ?? '',
    format,
  };
}

/** `queue` → Queue; the etag is the body's, else the ETag header's. */
export function parseQueue(
  body: string,
  kind: QueueKind,
  view: QueueView,
  headers: Record<string, string> = {},
): Queue {
  const root = parseRoot(body, 'queue');
  const items = kids(root, 'queue_item').map(queueItem);
  return {
    kind,
    view,
    etag: text(root, 'etag') ?? etagFromHeader(headers.etag) ?? '',
    total: num(text(root, 'number_of_results')) ?? items.length,
    items,
  };
}

/** Queue items a write created (`status` → `resources_created` → `queue_item`*). */
export function createdQueueItems(created: XNode | undefined): QueueItem[] {
  return kids(created, 'queue_item').map(queueItem);
}

/** `<user_rating>4</user_rating>` or `<user_rating value="not_interested"/>`. */
function userRatingOf(node: XNode): UserRating | null {
  const el = child(node, 'user_rating');
  if (!el) return null;
  const raw = (attr(el, 'value') ?? text(node, 'user_rating') ?? '').trim();
  if (raw === 'not_interested') return 'not_interested';
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 5 ? (n as UserRating) : null;
}

export function ratingItem(node: XNode): Rating {
  return { title: titleSummary(node), userRating: userRatingOf(node), predicted: num(text(node, 'predicted_rating')) };
}

/** `ratings` → one Rating per item (in the order the service gave, which is the refs' order). */
export function parseRatings(body: string): Rating[] {
  return kids(parseRoot(body, 'ratings'), 'ratings_item').map(ratingItem);
}

/** A paged list of ratings (`{user}/ratings/title/actual` without title_refs). */
export function parseRatingsPage(body: string): Page<Rating> {
  const root = parseRoot(body, 'ratings');
  return pageOf(root, kids(root, 'ratings_item').map(ratingItem));
}

/** The `ratings_item` ids, by title ref (the rating's own URL is derived from them). */
export function ratingItemIds(body: string): Map<string, string> {
  return new Map(
    kids(parseRoot(body, 'ratings'), 'ratings_item').map((i) => [titleSummary(i).ref, text(i, 'id') ?? '']),
  );
}

export function parseRecommendations(body: string): Page<Recommendation> {
  const root = parseRoot(body, 'recommendations');
  return pageOf(
    root,
    kids(root, 'recommendation').map((n) => ({ ...titleSummary(n), predicted: num(text(n, 'predicted_rating')) ?? 0 })),
  );
}

export function rentalItem(node: XNode): RentalItem {
  const summary = titleSummary(node);
  const format = categories(node).find((c) => c.schemeName === 'title_formats')?.term ?? '';
  return {
    ...summary,
    formats: format ? [format] : summary.formats,
    format,
    watchedDate: num(text(node, 'watched_date')),
    shippedDate: num(text(node, 'shipped_date')),
    returnedDate: num(text(node, 'returned_date')),
  };
}

export function parseRentalHistory(body: string): Page<RentalItem> {
  const root = parseRoot(body, 'rental_history');
  return pageOf(root, kids(root, 'rental_history_item').map(rentalItem));
}

/** `at_home` → the discs at home (same item shape as the history). */
export function parseAtHome(body: string): Page<RentalItem> {
  const root = parseRoot(body, 'at_home');
  return pageOf(root, kids(root, 'at_home_item').map(rentalItem));
}

/**
 * `title_states` → per title, the states for each queue. A `title_state_item`'s link names its
 * queue (rel `…/queues.instant…` or `…/queues.disc…`); its `format` holds the `title_states` terms.
 */
export function parseTitleStates(body: string): TitleState[] {
  return kids(parseRoot(body, 'title_states'), 'title_state').map((s) => {
    const ls = links(s);
    const state: TitleState = {
      ref: (ls.find((l) => l.rel === rel.title) ?? ls[0])?.href ?? '',
      instant: [],
      disc: [],
    };
    for (const item of kids(s, 'title_state_item')) {
      const l = links(item)[0];
      const where = `${l?.rel ?? ''} ${l?.title ?? ''}`;
      const queue = /queues\.instant|instant queue/.test(where)
        ? 'instant'
        : /queues\.disc|disc queue/.test(where)
          ? 'disc'
          : null;
      if (!queue) continue;
      const terms = kids(item, 'format').flatMap((f) =>
        categories(f)
          .filter((c) => c.schemeName === 'title_states')
          .map((c) => c.term),
      );
      state[queue].push(...terms.filter((t) => !state[queue].includes(t)));
    }
    return state;
  });
}
