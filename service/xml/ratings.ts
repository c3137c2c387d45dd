import { rel, SCHEMA_BASE } from '../../shared/protocol/index.ts';
import type { TitleRecord } from '../model/title.ts';
import type { Rating } from '../model/rating.ts';
import { link, titleUrl } from './links.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { catalogTitle, type TitleExtras, type TitleView } from './title.ts';

export const ratingsRel = {
  ratings: `${SCHEMA_BASE}ratings`,
  title: `${SCHEMA_BASE}ratings.title`,
  actual: `${SCHEMA_BASE}ratings.title.actual`,
  predicted: `${SCHEMA_BASE}ratings.title.predicted`,
} as const;

export function ratingsUrl(base: string, userId: string): string {
  return `${base}/users/${userId}/ratings`;
}

/**
 * `…/ratings/title/{title_id}`: a ratings_item's id, as the historical service wrote it. Clients
 * swap `title` for `title/actual` to get the rating's PUT target (HISTORICAL-REFERENCE §4.14).
 */
export function ratingItemUrl(base: string, userId: string, titleId: number): string {
  return `${ratingsUrl(base, userId)}/title/${titleId}`;
}

export function actualRatingUrl(base: string, userId: string, titleId: number): string {
  return `${ratingsUrl(base, userId)}/title/actual/${titleId}`;
}

export function recommendationsUrl(base: string, userId: string): string {
  return `${base}/users/${userId}/recommendations`;
}

/**
 * A title-bearing item of a user collection: its own `id`, a link to the title (rel
 * `…/catalog/title`), then the title's own fields and links, then `extra`.
 */
export function titleItem(
  t: TitleRecord,
  x: TitleExtras,
  view: TitleView,
  name: string,
  id: string,
  extra: XmlElement[] = [],
): XmlElement {
  const title = catalogTitle(t, x, view, name);
  const own = (title.children ?? []).filter((c) => c.name !== 'id');
  return el(name, null, textEl('id', id), link(titleUrl(view.base, t), rel.title, t.title), own, extra);
}

/** `<user_rating>4</user_rating>`, or the attribute form `<user_rating value="not_interested"/>`. */
export function userRatingElement(r: Rating): XmlElement {
  return r.value === 'not_interested' ? el('user_rating', { value: 'not_interested' }) : textEl('user_rating', r.value);
}

export function predictedRatingElement(predicted: number): XmlElement {
  return textEl('predicted_rating', predicted.toFixed(1));
}

/** What a ratings_item shows beyond the title: predicted and/or the subscriber's own rating. */
export interface RatingParts {
  predicted?: number | undefined;
  /** The subscriber's rating; absent when unrated (or not asked for). */
  rating?: Rating | undefined;
}

export function ratingsItem(
  t: TitleRecord,
  x: TitleExtras,
  view: TitleView,
  userId: string,
  parts: RatingParts,
): XmlElement {
  return titleItem(
    t,
    x,
    view,
    'ratings_item',
    ratingItemUrl(view.base, userId, t.id),
    [
      parts.predicted !== undefined ? predictedRatingElement(parts.predicted) : undefined,
      parts.rating ? userRatingElement(parts.rating) : undefined,
    ].filter((c): c is XmlElement => c !== undefined),
  );
}

/** A `recommendation`: id `…/users/UID/recommendations/{title_id}`, title-like, predicted_rating. */
export function recommendationElement(
  t: TitleRecord,
  x: TitleExtras,
  view: TitleView,
  userId: string,
  predicted: number,
): XmlElement {
  return titleItem(t, x, view, 'recommendation', `${recommendationsUrl(view.base, userId)}/${t.id}`, [
    predictedRatingElement(predicted),
  ]);
}
