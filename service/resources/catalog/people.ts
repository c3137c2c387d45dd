import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseExpand } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { checkStart, idSegment, pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { cachedCatalog } from '../../http/represent-cache.ts';
import { resource } from '../../http/route.ts';
import { getFilmography, getPeople, getPeopleInOrder, getTitlesInOrder } from '../../store/catalog/read.ts';
import type { Person } from '../../model/person.ts';
import { el } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { peopleElement, personElement } from '../../xml/person.ts';
import { titleLink } from '../../xml/links.ts';
import { renderTitles } from '../shared/title-list.ts';

/** People search, a person, and a person's filmography. */
export function registerPeople(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/catalog/people', {
    GET: {
      auth: 'signed',
      handler: cachedCatalog(svc, async (req, reply, ctx) => {
        const term = ctx.params.require('term');
        const paging = pagingOf(req, 100);
        const page = await svc.search.people(term, paging.start, paging.max);
        checkStart(paging, page.total);
        const people = await getPeopleInOrder(svc.db, page.ids);
        return represent(req, reply, peopleElement(svc.baseUrl, people, pagerElements(page.total, paging)));
      }),
    },
  });

  resource(app, svc, '/catalog/people/:id', {
    GET: {
      auth: 'signed',
      handler: cachedCatalog(svc, async (req, reply, ctx) => {
        const person = await findPerson(svc, req);
        let filmography;
        if (parseExpand(ctx.params.get('expand'), ctx.version).has('filmography')) {
          // A collection expands one level: links to its members, first page.
          const page = await getFilmography(svc.db, person.id, 0, 500);
          const titles = await getTitlesInOrder(svc.db, page.ids);
          filmography = el(
            'filmography',
            null,
            titles.map((t) => titleLink(svc.baseUrl, t)),
          );
        }
        return represent(req, reply, personElement(svc.baseUrl, person, filmography));
      }),
    },
  });

  resource(app, svc, '/catalog/people/:id/filmography', {
    GET: {
      auth: 'signed',
      handler: cachedCatalog(svc, async (req, reply, ctx) => {
        const person = await findPerson(svc, req);
        const paging = pagingOf(req, 500);
        const page = await getFilmography(svc.db, person.id, paging.start, paging.max);
        checkStart(paging, page.total);
        const items = await renderTitles(svc, ctx, await getTitlesInOrder(svc.db, page.ids), 'filmography_item');
        return represent(req, reply, el('filmography', null, pagerElements(page.total, paging), items));
      }),
    },
  });
}

async function findPerson(svc: ServiceContext, req: FastifyRequest): Promise<Person> {
  const [person] = await getPeople(svc.db, [idSegment((req.params as { id: string }).id)]);
  if (!person) throw ApiError.notFound();
  return person;
}
