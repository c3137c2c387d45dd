import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { checkStart, pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber } from '../../http/route.ts';
import { getTitlesInOrder } from '../../store/catalog/read.ts';
import { cachedRecommend } from '../../store/recommend/recommendation-cache.ts';
import { atomFromList, toAtom } from '../../xml/atom.ts';
import { el, textEl } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { recommendationElement, recommendationsUrl } from '../../xml/ratings.ts';
import { loadTitleExtras } from '../shared/title-extras.ts';
import { titleView } from '../shared/title-list.ts';

/** The most recommendations a subscriber has at once (and the page cap). */
const MAX_RECOMMENDATIONS = 500;

/**
 * `/users/UID/recommendations` (a feed): movies and series the subscriber has neither rated nor
 * queued, best predicted first (store/recommend/recommender.ts), paged; the list is kept per subscriber until
 * their ratings, queues or history change (store/recommend/recommendation-cache.ts).
 */
export function registerRecommendations(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/recommendations', {
    GET: {
      auth: 'protected',
      user: true,
      feed: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const paging = pagingOf(req, MAX_RECOMMENDATIONS);
        const now = svc.now();
        const all = await cachedRecommend(svc.db, user.id, now, MAX_RECOMMENDATIONS);
        checkStart(paging, all.length);
        const page = all.slice(paging.start, paging.start + paging.max);
        const titles = await getTitlesInOrder(
          svc.db,
          page.map((r) => r.titleId),
        );
        const view = titleView(svc, ctx);
        const extras = await loadTitleExtras(svc.db, titles, view.expand);
        const predicted = new Map(page.map((r) => [r.titleId, r.predicted]));
        const url = recommendationsUrl(svc.baseUrl, user.id);
        const root = el(
          'recommendations',
          null,
          textEl('url_template', `${url}?{-join|&|start_index|max_results|expand}`),
          pagerElements(all.length, paging),
          titles.map((t) => recommendationElement(t, extras.get(t.id)!, view, user.id, predicted.get(t.id)!)),
        );
        return represent(req, reply, root, () => {
          const feed = atomFromList(root, {
            title: `${user.first_name} ${user.last_name}: Recommendations`.trim(),
            self: url,
            now,
          });
          for (const entry of feed.entries) {
            const p = predicted.get(Number(/\/(\d+)$/.exec(entry.id)?.[1]));
            if (p !== undefined) entry.summary = `Predicted ${p.toFixed(1)} of 5`;
          }
          return toAtom(feed);
        });
      },
    },
  });
}
