import type { FastifyInstance } from 'fastify';
import { rel } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { cachedCatalog } from '../../http/represent-cache.ts';
import { resource } from '../../http/route.ts';
import { el } from '../../xml/node.ts';
import { link } from '../../xml/links.ts';
import { findTitles, titleQueryOf } from './title-browse.ts';
import { sendTitlePage } from '../shared/title-list.ts';

/** `/catalog` (links only), title search (and browse by genre: title-browse.ts) and autocomplete. */
export function registerCatalog(app: FastifyInstance, svc: ServiceContext): void {
  const base = svc.baseUrl;
  resource(app, svc, '/catalog', {
    GET: {
      auth: 'signed',
      handler: cachedCatalog(svc, (req, reply) =>
        represent(
          req,
          reply,
          el(
            'catalog',
            null,
            link(`${base}/catalog/titles`, rel.catalogTitles, 'titles'),
            link(`${base}/catalog/people`, rel.catalogPeople, 'people'),
            link(`${base}/catalog/titles/index`, rel.catalogTitlesIndex, 'index'),
            link(`${base}/catalog/titles/full`, rel.catalogTitlesFull, 'full'),
            link(`${base}/catalog/titles/autocomplete`, rel.catalogAutocomplete, 'autocomplete'),
          ),
        ),
      ),
    },
  });

  resource(app, svc, '/catalog/titles', {
    GET: {
      auth: 'signed',
      // available_now depends on the clock as well as on the catalog: not kept.
      handler: cachedCatalog(
        svc,
        async (req, reply, ctx) => {
          const query = titleQueryOf(ctx.params);
          const paging = pagingOf(req, 100);
          const page = await findTitles(svc, query, paging);
          return sendTitlePage(svc, req, reply, ctx, page, paging);
        },
        (ctx) => ctx.params.get('available_now') === 'true',
      ),
    },
  });

  resource(app, svc, '/catalog/titles/autocomplete', {
    GET: {
      auth: 'key',
      handler: cachedCatalog(svc, async (req, reply, ctx) => {
        const term = ctx.params.require('term');
        const paging = pagingOf(req, 100, 10);
        const titles = await svc.search.autocomplete(term, paging.max);
        return represent(
          req,
          reply,
          el(
            'autocomplete',
            null,
            titles.map((t) => el('autocomplete_item', null, el('title', { short: t.title }))),
          ),
        );
      }),
    },
  });
}
