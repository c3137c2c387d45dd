import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TitleType } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import { idSegment, pagingOf } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { cachedCatalog } from '../../http/represent-cache.ts';
import { resource, type ServiceHandler } from '../../http/route.ts';
import {
  getCredits,
  getDetails,
  getMemberIds,
  getPeopleInOrder,
  getSimilarIds,
  getTitle,
} from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import type { XmlElement } from '../../xml/node.ts';
import type { TitleDetails } from '../../model/title.ts';
import { peopleElement } from '../../xml/person.ts';
import { catalogTitle } from '../../xml/title.ts';
import {
  awardsElement,
  deliveryFormats,
  languagesElement,
  screenFormatsElement,
  synopsisElement,
} from '../../xml/title-parts.ts';
import { loadTitleExtras } from '../shared/title-extras.ts';
import { sendTitlePage, slicePage, titleView } from '../shared/title-list.ts';

type Sub = ServiceHandler<[t: TitleRecord]>;

/** Where each title type lives; seasons nest under their series. */
const TYPE_ROUTES: Array<{ type: TitleType; url: string }> = [
  { type: 'movie', url: '/catalog/titles/movies/:id' },
  { type: 'series', url: '/catalog/titles/series/:id' },
  { type: 'season', url: '/catalog/titles/series/:seriesId/seasons/:id' },
  { type: 'program', url: '/catalog/titles/programs/:id' },
  { type: 'disc', url: '/catalog/titles/discs/:id' },
];

const detail =
  (render: (base: string, d: TitleDetails) => XmlElement): Sub =>
  async (svc, req, reply, _ctx, t) => {
    const d = (await getDetails(svc.db, [t.id])).get(t.id);
    if (!d) throw ApiError.notFound();
    return represent(req, reply, render(svc.baseUrl, d));
  };

const people =
  (role: 'cast' | 'director'): Sub =>
  async (svc, req, reply, _ctx, t) => {
    const refs = (await getCredits(svc.db, [t.id], role)).get(t.id) ?? [];
    const credited = await getPeopleInOrder(
      svc.db,
      refs.map((r) => r.id),
    );
    return represent(req, reply, peopleElement(svc.baseUrl, credited));
  };

const members =
  (load: (svc: ServiceContext, t: TitleRecord) => Promise<number[]>): Sub =>
  async (svc, req, reply, ctx, t) => {
    const paging = pagingOf(req, 500);
    return sendTitlePage(svc, req, reply, ctx, slicePage(await load(svc, t), paging), paging);
  };

/** Subresources every title has, by URL segment. */
const SUBRESOURCES: Record<string, Sub> = {
  synopsis: async (svc, req, reply, _c, t) =>
    represent(req, reply, synopsisElement(svc.baseUrl, 'synopsis', t.synopsis)),
  short_synopsis: async (svc, req, reply, _c, t) =>
    represent(req, reply, synopsisElement(svc.baseUrl, 'short_synopsis', t.short_synopsis)),
  format_availability: async (svc, req, reply, _c, t) => represent(req, reply, deliveryFormats(svc.baseUrl, t.formats)),
  screen_formats: detail(screenFormatsElement),
  languages_and_audio: detail(languagesElement),
  awards: detail(awardsElement),
  cast: people('cast'),
  directors: people('director'),
  similars: members(async (svc, t) => (await getSimilarIds(svc.db, [t.id])).get(t.id) ?? []),
  bonus_materials: members(
    async (svc, t) => JSON.parse((await getDetails(svc.db, [t.id])).get(t.id)?.bonus_materials ?? '[]') as number[],
  ),
};

/** Subresources of some types only. */
const MEMBER_SUBRESOURCES: Record<string, { types: TitleType[]; sub: Sub }> = {
  seasons: {
    types: ['series'],
    sub: members(async (svc, t) => (await getMemberIds(svc.db, [t.id], 'season')).get(t.id) ?? []),
  },
  episodes: {
    types: ['series', 'season'],
    sub: members(async (svc, t) => (await getMemberIds(svc.db, [t.id], 'program')).get(t.id) ?? []),
  },
  discs: {
    types: ['series', 'season', 'movie'],
    sub: members(async (svc, t) => (await getMemberIds(svc.db, [t.id], 'disc')).get(t.id) ?? []),
  },
};

export function registerTitles(app: FastifyInstance, svc: ServiceContext): void {
  for (const { type, url } of TYPE_ROUTES) {
    resource(app, svc, url, {
      GET: {
        auth: 'signed',
        handler: cachedCatalog(svc, async (req, reply, ctx) => {
          const t = await findTitle(svc, req, type);
          const view = titleView(svc, ctx);
          const extras = await loadTitleExtras(svc.db, [t], view.expand);
          return represent(req, reply, catalogTitle(t, extras.get(t.id)!, view));
        }),
      },
    });
    const subs = { ...SUBRESOURCES };
    for (const [name, m] of Object.entries(MEMBER_SUBRESOURCES)) if (m.types.includes(type)) subs[name] = m.sub;
    for (const [name, sub] of Object.entries(subs)) {
      resource(app, svc, `${url}/${name}`, {
        GET: {
          auth: 'signed',
          handler: cachedCatalog(svc, async (req, reply, ctx) => {
            const t = await findTitle(svc, req, type);
            if (name === 'discs' && !t.hasDiscs) throw ApiError.notFound();
            return sub(svc, req, reply, ctx, t);
          }),
        },
      });
    }
  }
}

/** The title named by the URL, which must be exactly its URL: right type, right series. */
async function findTitle(svc: ServiceContext, req: FastifyRequest, type: TitleType): Promise<TitleRecord> {
  const { id, seriesId } = req.params as { id: string; seriesId?: string };
  const t = await getTitle(svc.db, idSegment(id));
  if (!t || t.type !== type) throw ApiError.notFound();
  if (type === 'season' && t.series_id !== idSegment(seriesId)) throw ApiError.notFound();
  return t;
}
