import type { FastifyInstance } from 'fastify';
import { CATEGORY_SCHEMES, categoryValues, type CategoryScheme } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { represent } from '../../http/represent.ts';
import { cachedCatalog } from '../../http/represent-cache.ts';
import { resource } from '../../http/route.ts';
import { el } from '../../xml/node.ts';

/** `/categories/<scheme>`: every value of a category scheme. */
export function registerCategories(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/categories/:scheme', {
    GET: {
      auth: 'signed',
      handler: cachedCatalog(svc, (req, reply) => {
        const { scheme } = req.params as { scheme: string };
        if (!(CATEGORY_SCHEMES as readonly string[]).includes(scheme)) throw ApiError.notFound();
        const schemeUrl = `${svc.baseUrl}/categories/${scheme}`;
        return represent(
          req,
          reply,
          el(
            'categories',
            null,
            categoryValues(scheme as CategoryScheme).map((term) =>
              el('category_item', { scheme: schemeUrl, label: term, term }),
            ),
          ),
        );
      }),
    },
  });
}
