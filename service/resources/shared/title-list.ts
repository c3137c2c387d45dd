import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseExpand } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { checkStart } from '../../http/params.ts';
import type { Paging } from '../../model/paging.ts';
import { represent } from '../../http/represent.ts';
import type { RequestContext } from '../../http/route.ts';
import { getTitlesInOrder } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import { el } from '../../xml/node.ts';
import { pagerElements } from '../../xml/pager.ts';
import { catalogTitle, type TitleView } from '../../xml/title.ts';
import { loadTitleExtras } from './title-extras.ts';

export function titleView(svc: ServiceContext, ctx: RequestContext): TitleView {
  return {
    base: svc.baseUrl,
    version: ctx.version,
    expand: parseExpand(ctx.params.get('expand'), ctx.version),
    now: svc.now(),
  };
}

/** `catalog_title` elements for titles in order, each with what `expand` asks for. */
export async function renderTitles(
  svc: ServiceContext,
  ctx: RequestContext,
  titles: TitleRecord[],
  name = 'catalog_title',
) {
  const view = titleView(svc, ctx);
  const extras = await loadTitleExtras(svc.db, titles, view.expand);
  return titles.map((t) => catalogTitle(t, extras.get(t.id)!, view, name));
}

/** A paged `catalog_titles` document for one page of ids out of `total`. */
export async function sendTitlePage(
  svc: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
  page: { ids: number[]; total: number },
  paging: Paging,
): Promise<FastifyReply> {
  checkStart(paging, page.total);
  const titles = await getTitlesInOrder(svc.db, page.ids);
  const items = await renderTitles(svc, ctx, titles);
  return represent(req, reply, el('catalog_titles', null, pagerElements(page.total, paging), items));
}

/** The page of a full id list (similars, seasons, episodes, discs: lists of tens, not thousands). */
export function slicePage(ids: number[], paging: Paging): { ids: number[]; total: number } {
  return { ids: ids.slice(paging.start, paging.start + paging.max), total: ids.length };
}
