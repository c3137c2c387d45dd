import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { renderBoxArt } from '../../data/invent/box-art.ts';
import { ApiError } from '../../model/api-error.ts';
import { idSegment } from '../../http/params.ts';
import { resource } from '../../http/route.ts';
import { getTitle } from '../../store/catalog/read.ts';

const SIZES = new Set(['small', 'medium', 'large']);

/**
 * Box art, generated per title: public like the historical image hosts were, so an app can put
 * the URL straight into an <img>. Cached for a day; the ETag hook adds revalidation.
 */
export function registerImages(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/box_art/:size/:file', {
    GET: {
      auth: 'none',
      handler: async (req, reply) => {
        const { size, file } = req.params as { size: string; file: string };
        const m = /^(\d+)\.svg$/.exec(file);
        if (!SIZES.has(size) || !m) throw ApiError.notFound();
        const t = await getTitle(svc.db, idSegment(m[1]));
        if (!t) throw ApiError.notFound();
        const svg = renderBoxArt(
          { id: t.id, title: t.title, release_year: t.release_year, genre: t.genres[0] },
          size as 'small' | 'medium' | 'large',
        );
        return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
      },
    },
  });
}
