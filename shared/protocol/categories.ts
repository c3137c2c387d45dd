/** Category schemes served under {base}/categories/<scheme> (CONTRACT.md §2). */
export const CATEGORY_SCHEMES = [
  'genres',
  'mpaa_ratings',
  'tv_ratings',
  'title_formats',
  'queue_availability',
  'title_states',
  'screen_formats',
  'languages',
  'audio',
  'award_types',
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

/*
 * The vocabularies of a title's details (screen formats, languages and audio, awards). The catalog
 * generators (service/data/details.ts) draw from these lists and nothing else, so the schemes can
 * list every value a title may carry without reading the catalog.
 */
export const SCREEN_FORMATS = ['1.33:1', '1.78:1', '1.85:1', '2.35:1', '2.40:1'] as const;
export type ScreenFormatTerm = (typeof SCREEN_FORMATS)[number];
export const LANGUAGES = ['English', 'French', 'Spanish'] as const;
export type LanguageTerm = (typeof LANGUAGES)[number];
export const AUDIO_FORMATS = [
  'DTS-HD Master Audio 5.1',
  'Dolby Digital 5.1',
  'Dolby Digital 2.0',
  'Stereo',
  'Mono',
] as const;
export type AudioTerm = (typeof AUDIO_FORMATS)[number];

/** An award type is `<body>: <category>`; films and series compete in their own categories. */
export const AWARD_BODIES = [
  'Golden Reel',
  'Silver Lantern',
  'Critics of the Marquee',
  'Harborview Film Festival',
  'Northern Screen',
] as const;
export const AWARD_CATEGORIES_FILM = [
  'Best Picture',
  'Best Cinematography',
  'Best Original Score',
  'Best Film Editing',
  'Best Visual Effects',
  'Best Production Design',
  'Best Ensemble',
  'Best Sound',
  'Audience Award',
] as const;
export const AWARD_CATEGORIES_TV = [
  'Outstanding Series',
  'Best Ensemble',
  'Best Title Sequence',
  'Audience Award',
] as const;
export const AWARD_TYPES: readonly string[] = AWARD_BODIES.flatMap((body) =>
  [...new Set([...AWARD_CATEGORIES_FILM, ...AWARD_CATEGORIES_TV])].map((category) => `${body}: ${category}`),
);

export function categoryValues(scheme: CategoryScheme): readonly string[] {
  switch (scheme) {
    case 'genres':
      return GENRES;
    case 'mpaa_ratings':
      return MPAA_RATINGS;
    case 'tv_ratings':
      return TV_RATINGS;
    case 'title_formats':
      return TITLE_FORMATS;
    case 'queue_availability':
      return QUEUE_AVAILABILITY;
    case 'title_states':
      return TITLE_STATES;
    case 'screen_formats':
      return SCREEN_FORMATS;
    case 'languages':
      return LANGUAGES;
    case 'audio':
      return AUDIO_FORMATS;
    case 'award_types':
      return AWARD_TYPES;
  }
}
