import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Message, SubCode, titleIdFromRef } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { checkStart, idSegment, pagingOf, type Params } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber, type RequestContext, type ServiceHandler } from '../../http/route.ts';
import { sendStatus } from '../../http/status.ts';
import { getTitle, getTitlesInOrder } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import { createRating, getRatings, listRatings, parseRating, setRating } from '../../store/subscriber/ratings.ts';
import type { Rating, RatingValue } from '../../model/rating.ts';
import { predictRatings } from '../../store/recommend/recommender.ts';
import type { User } from '../../model/user.ts';
import { atomFromList, toAtom } from '../../xml/atom.ts';
import { link } from '../../xml/links.ts';
import { el, textEl, type XmlElement } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { actualRatingUrl, ratingsItem, ratingsRel, ratingsUrl, type RatingParts } from '../../xml/ratings.ts';
import { loadTitleExtras } from '../shared/title-extras.ts';
import { titleView } from '../shared/title-list.ts';

/** The most title refs one request may name. */
export const MAX_TITLE_REFS = 500;

type Show = { actual: boolean; predicted: boolean };
const BOTH: Show = { actual: true, predicted: true };
const ACTUAL: Show = { actual: true, predicted: false };
const PREDICTED: Show = { actual: false, predicted: true };

/**
 * The subscriber's ratings (CONTRACT.md §3): actual and predicted together, each alone (both
 * feeds), creating (POST; 422 when already rated) and changing or clearing (PUT) a rating.
 */
export function registerRatings(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/ratings', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const url = `${ratingsUrl(svc.baseUrl, subscriber(ctx).id)}/title`;
        return represent(
          req,
          reply,
          el(
            'resource',
            null,
            link(url, ratingsRel.title, 'title ratings'),
            link(`${url}/actual`, ratingsRel.actual, 'actual ratings'),
            link(`${url}/predicted`, ratingsRel.predicted, 'predicted ratings'),
          ),
        );
      },
    },
  });
  resource(app, svc, '/users/:uid/ratings/title', {
    GET: { auth: 'protected', user: true, handler: (req, reply, ctx) => ratingsOfRefs(svc, req, reply, ctx, BOTH) },
  });
  resource(app, svc, '/users/:uid/ratings/title/actual', {
    GET: {
      auth: 'protected',
      user: true,
      feed: true,
      handler: (req, reply, ctx) =>
        ctx.params.has('title_refs') ? ratingsOfRefs(svc, req, reply, ctx, ACTUAL) : listActual(svc, req, reply, ctx),
    },
    POST: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const ref = ctx.params.require('title_ref').trim();
        const value = createValue(ctx.params);
        const id = titleIdFromRef(ref);
        const title = id === null ? undefined : await getTitle(svc.db, id);
        if (!title) throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);
        return create(svc, req, reply, ctx, user, title, value);
      },
    },
  });
  resource(app, svc, '/users/:uid/ratings/title/predicted', {
    GET: {
      auth: 'protected',
      user: true,
      feed: true,
      handler: (req, reply, ctx) => ratingsOfRefs(svc, req, reply, ctx, PREDICTED),
    },
  });
  resource(app, svc, '/users/:uid/ratings/title/actual/:titleId', {
    GET: { auth: 'protected', user: true, handler: (req, reply, ctx) => oneRating(svc, req, reply, ctx, ACTUAL) },
    PUT: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const title = await titleInPath(svc, req);
        const raw = ctx.params.require('rating');
        const value = parseRating(raw, true);
        if (value === undefined) throw ApiError.invalid('rating');
        await setRating(svc.db, user.id, title.id, value, svc.now());
        return sendStatus(req, reply, 200, value === null ? 'Rating removed' : 'Rating updated');
      },
    },
    // Historical clients create a rating by POSTing to the rating's own URL.
    POST: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const value = createValue(ctx.params);
        const raw = (req.params as { titleId?: string }).titleId ?? '';
        const title = /^\d{1,9}$/.test(raw) ? await getTitle(svc.db, Number(raw)) : undefined;
        if (!title) throw new ApiError(400, Message.titleNotFound, SubCode.titleNotFound);
        return create(svc, req, reply, ctx, user, title, value);
      },
    },
  });
  // The historical ratings_item id (`…/ratings/title/{title_id}`) names the title's ratings too.
  resource(app, svc, '/users/:uid/ratings/title/:titleId', {
    GET: { auth: 'protected', user: true, handler: (req, reply, ctx) => oneRating(svc, req, reply, ctx, BOTH) },
  });
}

/** A POST's `rating`: 1–5 or `not_interested` (`no_opinion` creates nothing: invalid). */
function createValue(p: Params): RatingValue {
  const value = parseRating(p.require('rating'), false);
  if (value === undefined || value === null) throw ApiError.invalid('rating');
  return value;
}

async function titleInPath(svc: ServiceContext, req: FastifyRequest): Promise<TitleRecord> {
  const title = await getTitle(svc.db, idSegment((req.params as { titleId?: string }).titleId));
  if (!title) throw ApiError.notFound();
  return title;
}

async function create(
  svc: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
  user: User,
  title: TitleRecord,
  value: RatingValue,
): Promise<FastifyReply> {
  const created = await createRating(svc.db, user.id, title.id, value, svc.now());
  if (!created) throw new ApiError(422, Message.alreadyRated);
  const [item] = await renderItems(svc, ctx, user, [title], BOTH);
  return sendStatus(req, reply, 201, 'Resource created', {
    resourcesCreated: [link(actualRatingUrl(svc.baseUrl, user.id, title.id), ratingsRel.actual, title.title), item!],
  });
}

/** `ratings_item` elements for titles in order, with the parts asked for. */
async function renderItems(
  svc: ServiceContext,
  ctx: RequestContext,
  user: User,
  titles: TitleRecord[],
  show: Show,
  known?: Map<number, Rating>,
): Promise<XmlElement[]> {
  const view = titleView(svc, ctx);
  const ids = titles.map((t) => t.id);
  const [extras, ratings, predicted] = await Promise.all([
    loadTitleExtras(svc.db, titles, view.expand),
    show.actual ? (known ?? getRatings(svc.db, user.id, ids)) : undefined,
    show.predicted ? predictRatings(svc.db, user.id, titles) : undefined,
  ]);
  return titles.map((t) => {
    const parts: RatingParts = { predicted: predicted?.get(t.id), rating: ratings?.get(t.id) };
    return ratingsItem(t, extras.get(t.id)!, view, user.id, parts);
  });
}

/** `title_refs` (comma-separated): the known titles, in order, once each. */
export async function titlesOfRefs(svc: ServiceContext, p: Params): Promise<{ refs: string[]; titles: TitleRecord[] }> {
  const refs = p.requireList('title_refs');
  if (refs.length > MAX_TITLE_REFS) throw ApiError.invalid('title_refs');
  const ids = [...new Set(refs.map(titleIdFromRef).filter((id): id is number => id !== null))];
  return { refs, titles: await getTitlesInOrder(svc.db, ids) };
}

function feedTitle(show: Show): string {
  return show.actual ? 'Ratings' : 'Predicted ratings';
}

/** `ratings` for the titles named by `title_refs` (unknown refs are left out). */
const ratingsOfRefs: ServiceHandler<[show: Show]> = async (svc, req, reply, ctx, show) => {
  const user = subscriber(ctx);
  const { titles } = await titlesOfRefs(svc, ctx.params);
  const ratings = show.actual
    ? await getRatings(
        svc.db,
        user.id,
        titles.map((t) => t.id),
      )
    : undefined;
  const root = el('ratings', null, await renderItems(svc, ctx, user, titles, show, ratings));
  const path = show.predicted && !show.actual ? 'predicted' : 'actual';
  return represent(req, reply, root, atomOf(svc, user, root, path, feedTitle(show), ratings));
};

/** The subscriber's ratings, newest first, paged. */
const listActual: ServiceHandler = async (svc, req, reply, ctx) => {
  const user = subscriber(ctx);
  const paging = pagingOf(req, 500);
  const page = await listRatings(svc.db, user.id, paging.start, paging.max);
  checkStart(paging, page.total);
  const titles = await getTitlesInOrder(
    svc.db,
    page.ratings.map((r) => r.titleId),
  );
  const ratings = new Map(page.ratings.map((r) => [r.titleId, r]));
  const root = el(
    'ratings',
    null,
    textEl(
      'url_template',
      `${ratingsUrl(svc.baseUrl, user.id)}/title/actual?{-join|&|title_refs|start_index|max_results|expand}`,
    ),
    pagerElements(page.total, paging),
    await renderItems(svc, ctx, user, titles, ACTUAL, ratings),
  );
  return represent(req, reply, root, atomOf(svc, user, root, 'actual', 'Ratings', ratings));
};

/** Atom form of a ratings list: an entry per item, dated by the rating when there is one. */
function atomOf(
  svc: ServiceContext,
  user: User,
  root: XmlElement,
  path: 'actual' | 'predicted',
  title: string,
  ratings?: Map<number, Rating>,
) {
  return () => {
    const now = svc.now();
    const feed = atomFromList(root, {
      title: `${user.first_name} ${user.last_name}: ${title}`.trim(),
      self: `${ratingsUrl(svc.baseUrl, user.id)}/title/${path}`,
      now,
    });
    for (const entry of feed.entries) {
      const id = Number(/\/(\d+)$/.exec(entry.id)?.[1]);
      const r = ratings?.get(id);
      if (r) {
        entry.updated = r.updated;
        entry.summary = r.value === 'not_interested' ? 'Not interested' : `Rated ${r.value} of 5`;
      } else if (path === 'predicted') {
        const predicted = root.children
          ?.find((c) => c.children?.some((k) => k.name === 'id' && k.text === entry.id))
          ?.children?.find((k) => k.name === 'predicted_rating');
        if (predicted?.text) entry.summary = `Predicted ${predicted.text} of 5`;
      }
    }
    if (ratings && ratings.size > 0) feed.updated = Math.max(...feed.entries.map((e) => e.updated));
    return toAtom(feed);
  };
}

/** One title's ratings_item; for `actual`, 404 unless the subscriber rated it. */
const oneRating: ServiceHandler<[show: Show]> = async (svc, req, reply, ctx, show) => {
  const user = subscriber(ctx);
  const title = await titleInPath(svc, req);
  const ratings = await getRatings(svc.db, user.id, [title.id]);
  if (show === ACTUAL && !ratings.has(title.id)) throw ApiError.notFound();
  const [item] = await renderItems(svc, ctx, user, [title], show, ratings);
  return represent(req, reply, item!);
};
