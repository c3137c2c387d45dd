import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { idSegment } from '../../http/params.ts';
import { resource } from '../../http/route.ts';
import { getPeople, getTitle } from '../../store/catalog/read.ts';
import { escapeText } from '../../xml/xml.ts';

/** The human pages behind `web page` links: plain HTML, public. */
export function registerWebPages(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/web/titles/:id', {
    GET: {
      auth: 'none',
      handler: async (req, reply) => {
        const t = await getTitle(svc.db, idSegment((req.params as { id: string }).id));
        if (!t) throw ApiError.notFound();
        const year = t.release_year ? ` (${t.release_year})` : '';
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              t.title + year,
              `<img src="${svc.baseUrl}/box_art/large/${t.id}.svg" alt=""><p>${t.synopsis.replaceAll('href="/catalog/people/', `href="${svc.baseUrl}/web/people/`)}</p>`,
            ),
          );
      },
    },
  });
  resource(app, svc, '/web/people/:id', {
    GET: {
      auth: 'none',
      handler: async (req, reply) => {
        const [p] = await getPeople(svc.db, [idSegment((req.params as { id: string }).id)]);
        if (!p) throw ApiError.notFound();
        return reply.type('text/html; charset=utf-8').send(page(p.name, `<p>${escapeText(p.bio)}</p>`));
      },
    },
  });
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeText(title)} · Marquee</title></head><body><h1>${escapeText(title)}</h1>${body}</body></html>`;
}
