import { rel, type ApiVersion, type ExpandName } from '../../shared/protocol/index.ts';
import type { PersonRef, TitleDetails, TitleRecord } from '../model/title.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { category, link, personLink, titleLink, titleUrl } from './links.ts';
import {
  awardsElement,
  deliveryFormats,
  languagesElement,
  screenFormatsElement,
  synopsisElement,
} from './title-parts.ts';

/** What may be shown of a title beyond its own row: filled in only for what `expand` asks. */
export interface TitleExtras {
  series?: TitleRecord | undefined;
  season?: TitleRecord | undefined;
  details?: TitleDetails | undefined;
  cast?: PersonRef[];
  directors?: PersonRef[];
  similars?: TitleRecord[];
  seasons?: TitleRecord[];
  episodes?: TitleRecord[];
  discs?: TitleRecord[];
  bonus?: TitleRecord[];
}

export interface TitleView {
  base: string;
  version: ApiVersion;
  expand: ReadonlySet<ExpandName>;
  now: number;
}

/**
 * A `catalog_title`: at v1.0 exactly id, title, box_art, link, release_year, category, runtime,
 * average_rating (old clients compare the element set). Each link's title is its expand name;
 * an expanded link carries the resource inline (single) or one level of member links (collection).
 */
export function catalogTitle(
  t: TitleRecord,
  x: TitleExtras,
  view: TitleView,
  name = 'catalog_title',
  extraChildren: XmlElement[] = [],
): XmlElement {
  const { base } = view;
  const id = titleUrl(base, t);
  return el(
    name,
    null,
    textEl('id', id),
    el('title', { short: t.short_title, regular: t.title }),
    el('box_art', boxArt(base, t.id)),
    titleLinks(t, x, view, id),
    t.release_year !== null && textEl('release_year', t.release_year),
    titleCategories(base, t),
    t.runtime !== null && textEl('runtime', t.runtime),
    t.average_rating !== null && textEl('average_rating', t.average_rating.toFixed(1)),
    extraChildren,
  );
}

export function boxArt(base: string, id: number) {
  return {
    small: `${base}/box_art/small/${id}.svg`,
    medium: `${base}/box_art/medium/${id}.svg`,
    large: `${base}/box_art/large/${id}.svg`,
  };
}

/** What a title's categories are made of: a full title record or an index title. */
export interface Categorised {
  mpaa_rating: string | null;
  tv_rating: string | null;
  genres: readonly string[];
  formats: ReadonlyArray<{ format: string }>;
}

/** The categories a title shows: ratings, genres, formats. */
export function titleCategories(base: string, t: Categorised): XmlElement[] {
  const out: XmlElement[] = [];
  if (t.mpaa_rating) out.push(category(base, 'mpaa_ratings', t.mpaa_rating));
  if (t.tv_rating) out.push(category(base, 'tv_ratings', t.tv_rating));
  for (const g of t.genres) out.push(category(base, 'genres', g));
  for (const f of t.formats) out.push(category(base, 'title_formats', f.format));
  return out;
}

function titleLinks(t: TitleRecord, x: TitleExtras, view: TitleView, id: string): XmlElement[] {
  const { base, expand } = view;
  const want = (n: ExpandName) => expand.has(n);
  const links: XmlElement[] = [];
  if (x.series && t.type !== 'series') links.push(link(titleUrl(base, x.series), rel.series, x.series.title));
  if (x.season && t.type !== 'season') links.push(link(titleUrl(base, x.season), rel.season, x.season.title));
  links.push(
    link(`${id}/synopsis`, rel.synopsis, 'synopsis', want('synopsis') && synopsisElement(base, 'synopsis', t.synopsis)),
    link(
      `${id}/short_synopsis`,
      rel.shortSynopsis,
      'short synopsis',
      want('short synopsis') && synopsisElement(base, 'short_synopsis', t.short_synopsis),
    ),
    link(`${id}/format_availability`, rel.formats, 'formats', want('formats') && deliveryFormats(base, t.formats)),
    link(
      `${id}/screen_formats`,
      rel.screenFormats,
      'screen formats',
      want('screen formats') && x.details && screenFormatsElement(base, x.details),
    ),
    link(
      `${id}/languages_and_audio`,
      rel.languagesAndAudio,
      'languages and audio',
      want('languages and audio') && x.details && languagesElement(base, x.details),
    ),
    link(`${id}/cast`, rel.cast, 'cast', want('cast') && people(base, x.cast)),
    link(`${id}/directors`, rel.directors, 'directors', want('directors') && people(base, x.directors)),
    link(`${id}/similars`, rel.similars, 'similars', want('similars') && memberLinks(base, 'similars', x.similars)),
    link(`${id}/awards`, rel.awards, 'awards', want('awards') && x.details && awardsElement(base, x.details)),
    link(
      `${id}/bonus_materials`,
      rel.bonusMaterials,
      'bonus materials',
      want('bonus materials') && memberLinks(base, 'bonus_materials', x.bonus),
    ),
  );
  if (t.type === 'series')
    links.push(
      link(`${id}/seasons`, rel.seasons, 'seasons', want('seasons') && memberLinks(base, 'seasons', x.seasons)),
    );
  if (t.type === 'series' || t.type === 'season') {
    links.push(
      link(`${id}/episodes`, rel.episodes, 'episodes', want('episodes') && memberLinks(base, 'episodes', x.episodes)),
    );
  }
  if (t.hasDiscs)
    links.push(link(`${id}/discs`, rel.discs, 'discs', want('discs') && memberLinks(base, 'discs', x.discs)));
  return links;
}

function people(base: string, list: PersonRef[] | undefined): XmlElement {
  return el(
    'people',
    null,
    (list ?? []).map((p) => personLink(base, p)),
  );
}

function memberLinks(base: string, name: string, list: TitleRecord[] | undefined): XmlElement {
  return el(
    name,
    null,
    (list ?? []).map((t) => titleLink(base, t)),
  );
}
