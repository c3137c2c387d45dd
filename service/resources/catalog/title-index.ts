import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ExpandName } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { hashEtag } from '../../http/etag.ts';
import { outputOf, type Output } from '../../http/params.ts';
import { CONTENT_TYPE } from '../../http/represent.ts';
import { resource, type RequestContext } from '../../http/route.ts';
import { getTitlePageAfter, indexBatchReader, readTitles } from '../../store/catalog/read.ts';
import { catalogGeneration } from '../../store/catalog/generation.ts';
import { indexItemElement } from '../../xml/index-element.ts';
import { indexItemWriter } from '../../xml/index-item.ts';
import { toJsonValue } from '../../xml/json.ts';
import type { XmlElement } from '../../xml/node.ts';
import { catalogTitle } from '../../xml/title.ts';
import { writeElement, XML_PROLOG } from '../../xml/xml.ts';
import { loadTitleExtras } from '../shared/title-extras.ts';

/** Index titles per batch: rendered straight to strings, a batch is ≈ 500 KB of XML. */
const INDEX_BATCH = 250;
/**
 * Full titles per batch. 100 rather than 500: at 500 the service's RSS grew ≈ 80 MB over a 36k-title
 * stream (bench S6) and the stream was slower; at 100 it grows < 1 MB.
 */
const FULL_BATCH = 100;
/** The stream is handed on in pieces of about this many characters. */
const CHUNK = 64 * 1024;
const FULL_EXPAND = new Set<ExpandName>([
  'synopsis',
  'formats',
  'screen formats',
  'languages and audio',
  'cast',
  'directors',
  'awards',
]);

/** The items of the titles after `after` in id order, rendered, and the last id they cover. */
type NextBatch = (after: number) => Promise<{ items: string[]; last: number } | null>;

/**
 * The whole catalog, streamed a batch of titles at a time straight from the database: memory stays
 * flat whatever the catalog's size (the reply's stream is read only as fast as the socket drains).
 * `/index` holds index items; `/full` holds title records (at v1.5 with their synopsis, formats,
 * people and details inline).
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
          const next = kind === 'index' ? indexItems(svc, output) : fullItems(svc, ctx, output);
          return reply
            .header('etag', etag)
            .type(CONTENT_TYPE[output])
            .send(Readable.from(stream(root, item, output, next), { objectMode: false }));
        },
      },
    });
  }
}

async function* stream(root: string, item: string, output: Output, next: NextBatch): AsyncGenerator<string> {
  const separator = output === 'json' ? ',' : '';
  let chunk = output === 'json' ? `{"${root}":{"${item}":[` : `${XML_PROLOG}<${root}>`;
  let first = true;
  for (let batch = await next(0); batch; batch = await next(batch.last)) {
    for (const rendered of batch.items) {
      chunk += first ? rendered : separator + rendered;
      first = false;
      if (chunk.length >= CHUNK) {
        yield chunk;
        chunk = '';
      }
    }
  }
  yield chunk + (output === 'json' ? ']}}' : `</${root}>`);
}

function indexItems(svc: ServiceContext, output: Output): NextBatch {
  const base = svc.baseUrl;
  const write = output === 'json' ? null : indexItemWriter(base);
  const read = indexBatchReader(svc.db);
  return async (after) => {
    const titles = await read(after, INDEX_BATCH);
    if (titles.length === 0) return null;
    const items = write ? titles.map(write) : titles.map((t) => renderElement(indexItemElement(base, t), output));
    return { items, last: titles[titles.length - 1]!.id };
  };
}

function fullItems(svc: ServiceContext, ctx: RequestContext, output: Output): NextBatch {
  const expand = ctx.version === '1.5' ? FULL_EXPAND : new Set<ExpandName>();
  const view = { base: svc.baseUrl, version: ctx.version, expand, now: svc.now() };
  return async (after) => {
    const ids = await getTitlePageAfter(svc.db, after, FULL_BATCH);
    if (ids.length === 0) return null;
    const byId = await readTitles(svc.db, ids, true);
    const titles = ids.map((id) => byId.get(id)!);
    const extras = await loadTitleExtras(svc.db, titles, expand);
    const items = titles.map((t) => renderElement(catalogTitle(t, extras.get(t.id)!, view), output));
    return { items, last: ids[ids.length - 1]! };
  };
}

function renderElement(element: XmlElement, output: Output): string {
  return output === 'json' ? JSON.stringify(toJsonValue(element)) : writeElement(element);
}
