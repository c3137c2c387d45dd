/** Category schemes served under {base}/categories/<scheme> (CONTRACT.md §2). */
export const CATEGORY_SCHEMES = [
  'genres',
  'mpaa_ratings',
  'tv_ratings',
  'title_formats',
  'queue_availability',
  'title_states',
] as const;
export type CategoryScheme = (typeof CATEGORY_SCHEMES)[number];

/** The one genre list both source datasets are mapped onto. */
export const GENRES = [
  'Action & Adventure',
  'Animation',
  'Children & Family',
  'Comedy',
  'Documentary',
  'Drama',
  'Horror',
  'Independent',
  'Music & Musicals',
  'Romance',
  'Sci-Fi & Fantasy',
  'Thrillers',
  'Westerns',
  'Television',
] as const;
export type Genre = (typeof GENRES)[number];

export const MPAA_RATINGS = ['G', 'PG', 'PG-13', 'R', 'NC-17', 'NR', 'UR'] as const;
export const TV_RATINGS = ['TV-Y', 'TV-Y7', 'TV-G', 'TV-PG', 'TV-14', 'TV-MA'] as const;

/** Delivery formats; the terms are the contract's (`instant`, `DVD`, `Blu-ray`). */
export const TITLE_FORMATS = ['instant', 'DVD', 'Blu-ray'] as const;
export type TitleFormat = (typeof TITLE_FORMATS)[number];

export const QUEUE_AVAILABILITY = ['available now', 'saved', 'awaiting release', 'available until'] as const;
export const TITLE_STATES = ['Add', 'Play', 'In Queue', 'Saved', 'At Home'] as const;

export function categoryValues(scheme: CategoryScheme): readonly string[] {
  switch (scheme) {
    case 'genres': return GENRES;
    case 'mpaa_ratings': return MPAA_RATINGS;
    case 'tv_ratings': return TV_RATINGS;
    case 'title_formats': return TITLE_FORMATS;
    case 'queue_availability': return QUEUE_AVAILABILITY;
    case 'title_states': return TITLE_STATES;
  }
}
