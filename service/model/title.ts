import type { TitleType } from '../../shared/protocol/index.ts';

/** A title's own fields, as the `titles` table holds them; times are Unix seconds. */
export interface Title {
  id: number;
  type: TitleType;
  title: string;
  short_title: string;
  release_year: number | null;
  runtime: number | null; // seconds
  average_rating: number | null; // 1.0–5.0
  mpaa_rating: string | null;
  tv_rating: string | null;
  /** season → its series; program → its season; disc → the movie or season it belongs to. */
  parent_id: number | null;
  /** The series a season or episode belongs to (saves a hop when building URLs). */
  series_id: number | null;
  /** Season number, episode number or disc number within the parent. */
  sequence: number | null;
  synopsis: string;
  short_synopsis: string;
  updated: number;
}

/** When a title can be had in one format. */
export interface Availability {
  title_id: number;
  format: string; // instant | DVD | Blu-ray
  available_from: number;
  available_until: number | null;
}

/** Per-title detail lists that are only ever read whole, each kept as JSON text. */
export interface TitleDetails {
  title_id: number;
  /** JSON: ScreenFormat[] */
  screen_formats: string;
  /** JSON: LanguageAudio[] */
  languages_and_audio: string;
  /** JSON: Award[] */
  awards: string;
  /** JSON: number[] — ids of titles that are this title's bonus materials */
  bonus_materials: string;
}

/** Shapes of the JSON detail lists. */
export interface ScreenFormat {
  format: string;
  screen_format: string;
}
export interface LanguageAudio {
  format: string;
  language: string;
  audio: string[];
}
export interface Award {
  kind: 'winner' | 'nominee';
  year: number;
  award: string;
}

/** A title with what every representation of it shows: its genres and its formats. */
export interface TitleRecord extends Title {
  genres: string[];
  formats: Availability[];
  /** Whether a movie or season has a disc set (a series when any season has). */
  hasDiscs: boolean;
}

/** A person as a title's credits name them. */
export interface PersonRef {
  id: number;
  name: string;
}

/** What an index item shows of a title: its row's index columns, genres, formats and credits. */
export interface IndexTitle
  extends Pick<
    Title,
    'id' | 'type' | 'series_id' | 'title' | 'release_year' | 'updated' | 'mpaa_rating' | 'tv_rating'
  > {
  genres: string[];
  formats: Availability[];
  cast: PersonRef[];
  directors: PersonRef[];
}
