import { SCHEMA_BASE } from '../../../shared/protocol/rels.ts';
import type { Page, Rating, Recommendation, RentalItem, TitleState, UserRating } from '../../../shared/models.ts';
import { ServiceError, type Transport } from '../types.ts';
import {
  findLink,
  kids,
  parseRatings,
  parseRatingsPage,
  parseRecommendations,
  parseRentalHistory,
  parseStatus,
  parseTitleStates,
  ratingItem,
  ratingItemIds,
  type Status,
} from '../xml/index.ts';
import { pagingQuery, type Paging } from './catalog.ts';

/** The subscriber's other resources: title states, ratings, recommendations, rental history. */

export type HistoryView = 'all' | 'shipped' | 'returned' | 'watched';

export interface RatingWrite {
  rating: Rating;
  status: Status;
}

export interface AccountClient {
  /** GET {user}/title_states?title_refs=… (one TitleState per known ref, in order). */
  titleStates(refs: readonly string[]): Promise<TitleState[]>;
  /** GET {user}/ratings/title?title_refs=… — actual and predicted together. */
  ratings(refs: readonly string[]): Promise<Rating[]>;
  /**
   * Sets (1–5, `not_interested`) or clears (null → `no_opinion`) the user's rating and returns the
   * title's rating after it. An unrated title is POSTed; a rated one (422, or `rated: true` known)
   * is PUT to its rating URL.
   */
  setRating(ref: string, rating: UserRating | null, opts?: { rated?: boolean }): Promise<RatingWrite>;
  /** GET {user}/ratings/title/actual (paged): the titles the user rated. */
  ratedTitles(paging?: Paging): Promise<Page<Rating>>;
  /** GET {user}/recommendations (paged). */
  recommendations(paging?: Paging): Promise<Page<Recommendation>>;
  /** GET {user}/rental_history[/shipped|/returned|/watched] (paged, newest first). */
  rentalHistory(view?: HistoryView, paging?: Paging): Promise<Page<RentalItem>>;
}

const RATING_REL = `${SCHEMA_BASE}ratings.title.actual`;

/**
 * A rating's own URL (`…/ratings/title/actual/{id}`) from its `ratings_item` id
 * (`…/ratings/title/{id}`): the historical clients' rule, which the service keeps.
 */
export function actualRatingUrl(ratingItemId: string): string {
  return ratingItemId.replace(/\/ratings\/title\/(?!actual\/)/, '/ratings/title/actual/');
}

export function accountClient(transport: Transport, userUrl: () => Promise<string>): AccountClient {
  /** Rating URLs learnt from POST answers (rel `…/ratings.title.actual`), by title ref. */
  const ratingUrls = new Map<string, string>();

  const get = async (path: string, query: Record<string, string> = {}) =>
    (await transport.request({ url: `${await userUrl()}${path}`, query, level: 'protected' })).body;

  const ratingsOf = async (refs: readonly string[]) => get('/ratings/title', { title_refs: refs.join(',') });

  const one = async (ref: string): Promise<{ rating: Rating; url: string | null }> => {
    const body = await ratingsOf([ref]);
    const rating = parseRatings(body)[0];
    if (!rating) throw new ServiceError({ kind: 'not_found', message: 'Title not found', status: 404 });
    const id = ratingItemIds(body).get(rating.title.ref);
    return { rating, url: ratingUrls.get(ref) ?? (id ? actualRatingUrl(id) : null) };
  };

  const put = async (ref: string, value: string, rating: UserRating | null): Promise<RatingWrite> => {
    const current = await one(ref);
    if (rating === null && current.rating.userRating === null) {
      return {
        rating: current.rating,
        status: {
          statusCode: 200,
          subCode: null,
          message: 'Not rated',
          etag: null,
          createdRefs: [],
          created: undefined,
          failedTitleRefs: [],
          alreadyInQueue: [],
        },
      };
    }
    if (!current.url)
      throw new ServiceError({ kind: 'server', message: 'Unexpected response from the service: no rating URL' });
    const res = await transport.request({
      method: 'PUT',
      url: current.url,
      form: { rating: value },
      level: 'protected',
    });
    return { rating: { ...current.rating, userRating: rating }, status: parseStatus(res.body, res.headers) };
  };

  return {
    async titleStates(refs) {
      return parseTitleStates(await get('/title_states', { title_refs: refs.join(',') }));
    },
    async ratings(refs) {
      return parseRatings(await ratingsOf(refs));
    },
    async setRating(ref, rating, opts) {
      if (rating === null) return put(ref, 'no_opinion', null);
      const value = String(rating);
      if (!opts?.rated) {
        try {
          const res = await transport.request({
            method: 'POST',
            url: `${await userUrl()}/ratings/title/actual`,
            form: { title_ref: ref, rating: value },
            level: 'protected',
          });
          const status = parseStatus(res.body, res.headers);
          const link = findLink(status.created, RATING_REL);
          if (link?.href) ratingUrls.set(ref, link.href);
          const item = kids(status.created, 'ratings_item')[0];
          if (item) return { rating: { ...ratingItem(item), userRating: rating }, status };
          return { rating: (await one(ref)).rating, status };
        } catch (error) {
          if (!(error instanceof ServiceError && error.appError.status === 422)) throw error;
        }
      }
      return put(ref, value, rating);
    },
    async ratedTitles(paging) {
      return parseRatingsPage(await get('/ratings/title/actual', pagingQuery(paging)));
    },
    async recommendations(paging) {
      return parseRecommendations(await get('/recommendations', pagingQuery(paging)));
    },
    async rentalHistory(view = 'all', paging) {
      return parseRentalHistory(await get(`/rental_history${view === 'all' ? '' : `/${view}`}`, pagingQuery(paging)));
    },
  };
}
