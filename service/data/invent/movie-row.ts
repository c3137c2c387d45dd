/** A movie's title row, the same for the demo seed's films and the synthetic catalog's. */
import type { TitlesTable } from '../../store/schema.ts';
import { shortTitle } from './text.ts';

export interface MovieFacts {
  id: number;
  title: string;
  year: number;
  /** seconds */
  runtime: number;
  rating: number;
  mpaa: string | null;
  text: { synopsis: string; short: string };
  updated: number;
}

/** A top-level movie: no parent, series or sequence, no TV rating. */
export function movieRow(m: MovieFacts): TitlesTable {
  return {
    id: m.id,
    type: 'movie',
    title: m.title,
    short_title: shortTitle(m.title),
    release_year: m.year,
    runtime: m.runtime,
    average_rating: m.rating,
    mpaa_rating: m.mpaa,
    tv_rating: null,
    parent_id: null,
    series_id: null,
    sequence: null,
    synopsis: m.text.synopsis,
    short_synopsis: m.text.short,
    updated: m.updated,
  };
}
