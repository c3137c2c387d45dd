import { rel } from '../../../shared/protocol/rels.ts';
import type {
  Award,
  Availability,
  LanguageAudio,
  Page,
  Person,
  Ref,
  ScreenFormat,
  TitleDetail,
  TitleSummary,
  TitleType,
} from '../../../shared/models.ts';
import {
  attr,
  badResponse,
  categories,
  child,
  findLink,
  kids,
  links,
  num,
  ownText,
  pageOf,
  parseRoot,
  refsOf,
  termsIn,
  text,
  type Link,
  type XNode,
} from './parse.ts';

/**
 * Title-bearing elements → models: `catalog_title` and every element that carries a title's own
 * fields (`queue_item`, `ratings_item`, `recommendation`, `rental_history_item`, `filmography_item`).
 */

/**
 * A title's type from its links: a series links its seasons, a season its episodes (and no
 * seasons). Movies, episodes and discs look alike in a list; the service's path names them, so as a
 * last resort the ref's path is read as a hint (never to build anything from).
 */
export function titleType(ref: string, ls: Link[]): TitleType {
  const has = (r: string, title: string) => ls.some((l) => l.rel === r || l.title === title);
  if (has(rel.seasons, 'seasons')) return 'series';
  if (has(rel.episodes, 'episodes')) return 'season';
  let path = '';
  try {
    path = new URL(ref).pathname;
  } catch {
    path = ref;
  }
  if (/\/seasons\/[^/]+\/?$/.test(path)) return 'season';
  if (/\/programs\//.test(path)) return 'program';
  if (/\/discs\//.test(path)) return 'disc';
  if (/\/series\//.test(path)) return 'series';
  if (ls.some((l) => l.rel === rel.season || l.rel === rel.series)) return 'program';
  return 'movie';
}

/**
 * The summary of any title-bearing element. Items of user collections have their own `id`: their
 * title's ref is their link with rel `…/catalog/title`.
 */
export function titleSummary(node: XNode): TitleSummary {
  const ls = links(node);
  const titleLink = ls.find((l) => l.rel === rel.title);
  const ref = titleLink?.href || text(node, 'id') || '';
  if (!ref) throw badResponse('title without id');
  const titleEl = child(node, 'title');
  const regular = attr(titleEl, 'regular') ?? (ownText(titleEl) || titleLink?.title || '');
  const art = child(node, 'box_art');
  const cats = categories(node);
  return {
    ref,
    type: titleType(ref, ls),
    title: regular,
    shortTitle: attr(titleEl, 'short') ?? regular,
    year: num(text(node, 'release_year')),
    runtimeSeconds: num(text(node, 'runtime')),
    averageRating: num(text(node, 'average_rating')),
    boxArt: { small: attr(art, 'small') ?? '', medium: attr(art, 'medium') ?? '', large: attr(art, 'large') ?? '' },
    genres: cats.filter((c) => c.schemeName === 'genres').map((c) => c.term),
    maturity: cats.find((c) => c.schemeName === 'mpaa_ratings' || c.schemeName === 'tv_ratings')?.term ?? null,
    formats: cats.filter((c) => c.schemeName === 'title_formats').map((c) => c.term),
  };
}

/** The expanded content of a title's link (`rel`, or the link titled with the expand name). */
function expanded(node: XNode, relation: string, expandName: string, element: string): XNode | undefined {
  return child(findLink(node, relation, expandName)?.node, element);
}

function linkRef(node: XNode, relation: string): Ref | null {
  const l = links(node).find((x) => x.rel === relation);
  return l?.href ? { ref: l.href, name: l.title } : null;
}

function availabilityOf(node: XNode): Availability[] {
  return kids(expanded(node, rel.formats, 'formats', 'delivery_formats'), 'availability').map((a) => ({
    format: termsIn(a, 'title_formats')[0] ?? '',
    from: num(attr(a, 'available_from')) ?? 0,
    until: num(attr(a, 'available_until')),
  }));
}

function screenFormatsOf(node: XNode): ScreenFormat[] {
  return kids(expanded(node, rel.screenFormats, 'screen formats', 'screen_formats'), 'screen_format').map((s) => ({
    format: termsIn(s, 'title_formats')[0] ?? '',
    screenFormat: termsIn(s, 'screen_formats')[0] ?? '',
  }));
}

/** `language_audio_format` → category(title_formats) → category(languages) → category(audio)*. */
function languagesOf(node: XNode): LanguageAudio[] {
  const out: LanguageAudio[] = [];
  for (const laf of kids(
    expanded(node, rel.languagesAndAudio, 'languages and audio', 'languages_and_audio'),
    'language_audio_format',
  )) {
    for (const format of categories(laf).filter((c) => c.schemeName === 'title_formats')) {
      for (const language of categories(format.node).filter((c) => c.schemeName === 'languages')) {
        out.push({ format: format.term, language: language.term, audio: termsIn(language.node, 'audio') });
      }
    }
  }
  return out;
}

function awardsOf(node: XNode): Award[] {
  const awards = expanded(node, rel.awards, 'awards', 'awards');
  const one =
    (won: boolean) =>
    (a: XNode): Award => ({ won, year: num(attr(a, 'year')), name: categories(a)[0]?.term ?? '' });
  return [...kids(awards, 'award_winner').map(one(true)), ...kids(awards, 'award_nominee').map(one(false))].sort(
    (a, b) => (a.year ?? 0) - (b.year ?? 0),
  );
}

/**
 * A `catalog_title` with whatever its links carry expanded. Similars are names only (the expansion
 * links each similar title, without box art); `similarsRef` is their own list, with box art.
 */
export function titleDocument(node: XNode): TitleDetail {
  return {
    ...titleSummary(node),
    synopsis: text(findLink(node, rel.synopsis, 'synopsis')?.node, 'synopsis') ?? '',
    availability: availabilityOf(node),
    screenFormats: screenFormatsOf(node),
    languages: languagesOf(node),
    cast: refsOf(expanded(node, rel.cast, 'cast', 'people')),
    directors: refsOf(expanded(node, rel.directors, 'directors', 'people')),
    similars: refsOf(expanded(node, rel.similars, 'similars', 'similars')),
    similarsRef: findLink(node, rel.similars, 'similars')?.href || null,
    seasons: refsOf(expanded(node, rel.seasons, 'seasons', 'seasons')),
    episodes: refsOf(expanded(node, rel.episodes, 'episodes', 'episodes')),
    discs: refsOf(expanded(node, rel.discs, 'discs', 'discs')),
    series: linkRef(node, rel.series),
    season: linkRef(node, rel.season),
    awards: awardsOf(node),
  };
}

/** `catalog_titles` (a search, a title's similars list) → a page of summaries. */
export function parseTitlePage(body: string): Page<TitleSummary> {
  const root = parseRoot(body, 'catalog_titles');
  return pageOf(root, kids(root, 'catalog_title').map(titleSummary));
}

export function parseTitle(body: string): TitleDetail {
  return titleDocument(parseRoot(body, 'catalog_title'));
}

/** A person's own document; the filmography (with box art) is fetched from `filmographyUrl`. */
export interface PersonDocument {
  person: Omit<Person, 'filmography'>;
  filmographyUrl: string | null;
}

/** `person` (an expanded filmography's bare links are not used: they carry no box art). */
export function parsePerson(body: string): PersonDocument {
  const root = parseRoot(body, 'person');
  const ref = text(root, 'id') ?? '';
  if (!ref) throw badResponse('person without id');
  return {
    person: { ref, name: text(root, 'name') ?? '', bio: text(root, 'bio') ?? '' },
    filmographyUrl: findLink(root, rel.filmography, 'filmography')?.href || null,
  };
}

/** `people` (a name search) → a page of refs. */
export function parsePeoplePage(body: string): Page<Ref> {
  const root = parseRoot(body, 'people');
  return pageOf(
    root,
    kids(root, 'person')
      .map((p) => ({ ref: text(p, 'id') ?? '', name: text(p, 'name') ?? '' }))
      .filter((p) => p.ref !== ''),
  );
}

/** `filmography` fetched alone: a page of `filmography_item`. */
export function parseFilmography(body: string): Page<TitleSummary> {
  const root = parseRoot(body, 'filmography');
  return pageOf(root, kids(root, 'filmography_item').map(titleSummary));
}
