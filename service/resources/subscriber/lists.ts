import type { FastifyInstance } from 'fastify';
import { SCHEMA_BASE } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { checkStart, idSegment, pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber } from '../../http/route.ts';
import { getTitlesInOrder } from '../../store/catalog/read.ts';
import { getList, listTitleIds, readLists, type TitleList } from '../../store/subscriber/lists.ts';
import { link } from '../../xml/links.ts';
import { el, textEl, type XmlElement } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { renderTitles } from '../shared/title-list.ts';

const LIST_REL = `${SCHEMA_BASE}list`;

function listsUrl(base: string, userId: string): string {
  return `${base}/users/${userId}/lists`;
}

/** A list's own fields: id (its URL), name, number_of_items, a link to itself. */
function listHead(base: string, userId: string, list: TitleList): XmlElement[] {
  const url = `${listsUrl(base, userId)}/${list.id}`;
  return [
    textEl('id', url),
    textEl('name', list.name),
    textEl('number_of_items', list.number_of_items),
    link(url, LIST_REL, list.name),
  ];
}

/**
 * The subscriber's named title lists, read-only (CONTRACT.md §3): `/users/UID/lists` → `lists` →
 * `list`*, and `/users/UID/lists/<id>` → `list` with its titles as paged `list_item`s. Another
 * subscriber's list id is unknown here (404).
 */
export function registerLists(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/lists', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const paging = pagingOf(req, 500);
        const { total, lists } = await readLists(svc.db, user.id, paging);
        checkStart(paging, total);
        const url = listsUrl(svc.baseUrl, user.id);
        return represent(
          req,
          reply,
          el(
            'lists',
            null,
            textEl('url_template', `${url}?{-join|&|start_index|max_results}`),
            pagerElements(total, paging),
            lists.map((l) => el('list', null, listHead(svc.baseUrl, user.id, l))),
          ),
        );
      },
    },
  });
  resource(app, svc, '/users/:uid/lists/:listId', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const listId = idSegment((req.params as { listId?: string }).listId);
        const paging = pagingOf(req, 500);
        const list = await getList(svc.db, user.id, listId);
        if (!list) throw ApiError.notFound();
        checkStart(paging, list.number_of_items);
        const titles = await getTitlesInOrder(svc.db, await listTitleIds(svc.db, list.id, paging));
        const items = await renderTitles(svc, ctx, titles, 'list_item');
        const url = `${listsUrl(svc.baseUrl, user.id)}/${list.id}`;
        return represent(
          req,
          reply,
          el(
            'list',
            null,
            listHead(svc.baseUrl, user.id, list),
            textEl('url_template', `${url}?{-join|&|start_index|max_results|expand}`),
            pagerElements(list.number_of_items, paging),
            items,
          ),
        );
      },
    },
  });
}
