import type { ImportCandidate, ImportEntry } from '../../shared/import-export.ts';

/**
 * A title the import's matcher could offer, as the core maps one: a movie streaming now, never on
 * disc, with no art, rating or genres, its short title its title, unless `fields` say otherwise.
 */
export function importCandidate(
  fields: Pick<ImportCandidate, 'ref' | 'title'> & Partial<ImportCandidate>,
): ImportCandidate {
  return {
    type: 'movie',
    shortTitle: fields.title,
    year: null,
    runtimeSeconds: null,
    averageRating: null,
    boxArt: { small: '', medium: '', large: '' },
    genres: [],
    maturity: null,
    formats: ['instant'],
    placement: { instant: 'now', disc: 'never' },
    ...fields,
  };
}

/** A candidate by id and name, its ref on a made-up service (the matcher reads no addresses). */
export function movieCandidate(
  id: number,
  name: string,
  year: number | null,
  type: 'movie' | 'series' = 'movie',
): ImportCandidate {
  return importCandidate({ ref: `http://s/catalog/titles/movies/${id}`, type, title: name, year });
}

/** One line of a file read for import: a listed title, with no rating, type or ref unless `more` gives one. */
export function importEntry(name: string, year: number | null, more: Partial<ImportEntry> = {}): ImportEntry {
  return { line: 1, title: name, year, type: null, ref: null, rating: null, listed: true, ...more };
}
