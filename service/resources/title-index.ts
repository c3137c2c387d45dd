import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { rel, type ExpandName } from '../../shared/protocol/index.ts';
import type { ServiceContext } from '../context.ts';
import { hashEtag } from '../http/etag.ts';
import { outputOf, type Output } from '../http/params.ts';
import { CONTENT_TYPE } from '../http/represent.ts';
import { resource, type RequestContext } from '../http/route.ts';
import { getCastAndDirectors, getTitlePageAfter, readTitles, type TitleRecord } from '../store/catalog.ts';
import { catalogGeneration } from '../store/generation.ts';
import { el, textEl, type XmlElement } from '../xml/node.ts';
import { link, personLink, titleUrl } from '../xml/links.ts';
import { deliveryFormats } from '../xml/title-parts.ts';
import { catalogTitle, titleCategories } from '../xml/title.ts';
import { toJsonValue } from '../xml/json.ts';
import { writeElement, XML_PROLOG } from '../xml/xml.ts';
import { loadTitleExtras } from './title-extras.ts';

/**
 * Titles per batch. 100 rather than 500: at 500 the service's RSS grew ≈ 80 MB over a 36k-title
 * stream (bench S6) and the stream was slower; at 100 it grows < 1 MB.
 */
const BATCH = 100;
const FULL_EXPAND = new Set<ExpandName>(['synopsis', 'formats', 'screen formats', 'languages and audio', 'cast', 'directors', 'awards']);

/**
 * The whole catalog, streamed a batch of titles at a time straight from the database: memory stays
 * flat whatever the catalog's size. `/index` holds index items; `/full` holds title records
 * (at v1.5 with their synopsis, formats, people and details inline).
 */
export function registerTitleIndex(app: FastifyInstance, svc: ServiceContext): void {
  for (const kind of ['index', 'full'] as const) {
    resource(app, svc, `/catalog/titles/${kind}`, {
      GET: {
        auth: 'signed',
        handler: async (req, reply, ctx) => {
          const output: Output = outputOf(req) === 'json' ? 'json' : 'xml';
          const etag = hashEtag(`${kind} ${ctx.version} ${output} ${svc.baseUrl} ${await catalogGeneration(svc.db)}`);
          const root = kind === 'index' ? 'catalog_title_index' : 'catalog_titles';
          const item = kind === 'index' ? 'title_index_item' : 'catalog_title';
          const render = kind === 'index' ? indexItems(svc) : fullItems(svc, ctx);
          return reply
            .header('etag', etag)
            .type(CONTENT_TYPE[output])
            .send(Readable.from(stream(svc, root, item, output, render), { objectMode: false }));
        },
      },
    });
  }
}

type RenderBatch = (titles: TitleRecord[]) => Promise<XmlElement[]>;

async function* stream(svc: ServiceContext, root: string, item: string, output: Output, render: RenderBatch): AsyncGenerator<string> {
  yield output === 'json' ? `{"${root}":{"${item}":[` : `${XML_PROLOG}<${root}>`;
  let after = 0;
  let first = true;
  for (;;) {
    const ids = await getTitlePageAfter(svc.db, after, BATCH);
    if (ids.length === 0) break;
    after = ids[ids.length - 1]!;
    const titles = await readTitles(svc.db, ids, item !== 'title_index_item');
    const elements = await render(ids.map((id) => titles.get(id)!));
    let chunk = '';
    for (const e of elements) {
      if (output === 'json') {
        chunk += (first ? '' : ',') + JSON.stringify(toJsonValue(e));
        first = false;
      } else chunk += writeElement(e);
    }
    yield chunk;
  }
  yield output === 'json' ? ']}}' : `</${root}>`;
}

function indexItems(svc: ServiceContext): RenderBatch {
  const base = svc.baseUrl;
  return async (titles) => {
    const ids = titles.map((t) => t.id);
    const { cast, directors } = await getCastAndDirectors(svc.db, ids);
    return titles.map((t) =>
      el('title_index_item', null,
        textEl('id', titleUrl(base, t)),
        textEl('title', t.title),
        t.release_year !== null && textEl('release_year', t.release_year),
        textEl('updated', t.updated),
        titleCategories(base, t),
        (cast.get(t.id) ?? []).map((p) => personLink(base, p, rel.personActor)),
        (directors.get(t.id) ?? []).map((p) => personLink(base, p, rel.personDirector)),
        link(`${base}/web/titles/${t.id}`, rel.webPage, 'web page'),
        deliveryFormats(base, t.formats),
      ));
  };
}

function fullItems(svc: ServiceContext, ctx: RequestContext): RenderBatch {
  const expand = ctx.version === '1.5' ? FULL_EXPAND : new Set<ExpandName>();
  const view = { base: svc.baseUrl, version: ctx.version, expand, now: svc.now() };
  return async (titles) => {
    const extras = await loadTitleExtras(svc.db, titles, expand);
    return titles.map((t) => catalogTitle(t, extras.get(t.id)!, view));
  };
}

