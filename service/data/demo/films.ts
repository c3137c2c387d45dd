/** Demo movie rows from the seed: real facts from the seed, everything else generated per title. */
import type { TitleFormat } from '../../../shared/protocol/index.ts';
import type { AvailabilityTable } from '../../store/schema.ts';
import { availabilityRows, DISC_FORMATS, filmFormats, inheritRows, pickState } from '../invent/availability.ts';
import type { CatalogBatch } from '../catalog-batch.ts';
import type { CastSource } from '../invent/cast.ts';
import { detailsRow } from '../invent/details.ts';
import { movieRow } from '../invent/movie-row.ts';
import { rngFor, type Rng } from '../rng.ts';
import type { SeedFilm } from '../seed-format.ts';
import { escapeHtml, shortTitle, synopsis, type PersonRef } from '../invent/text.ts';

export interface FilmContext {
  seed: number;
  now: number;
  cast: CastSource;
  /** real director name → person */
  directors: ReadonlyMap<string, PersonRef>;
  /** hands out ids for disc sets */
  nextDiscId: () => number;
}

const DAY = 86_400;
const round1 = (x: number): number => Math.round(Math.min(5, Math.max(1, x)) * 10) / 10;

/** Where the seed lacks a runtime or rating, a plausible generated one (documented in NOTICE). */
function fillRuntime(rng: Rng, film: SeedFilm): number {
  return film.runtime ?? rng.int(film.genres.includes('Animation') ? 75 : 85, 130);
}

/** Appends one film (and its disc set, ~15% of films) to `out`. */
export function addFilm(out: CatalogBatch, id: number, film: SeedFilm, ctx: FilmContext): void {
  const rng = rngFor(ctx.seed, id, 'film');
  const runtime = fillRuntime(rng, film) * 60;
  const rating = film.rating ?? round1(2.4 + rng.next() * 1.8);
  const directors = film.directors.map((n) => ctx.directors.get(n) as PersonRef);
  const cast = ctx.cast.pick(rng, rng.int(3, 8));
  const text = synopsis(rng, { year: film.year, genres: film.genres, directors, cast, kind: 'film' });
  const formats = filmFormats(rng, film.year);
  const availability = availabilityRows(id, formats, rng, ctx.now, pickState(rng));

  const hasDiscFormat = formats.some((f) => f !== 'instant');
  const discIds =
    hasDiscFormat && rng.chance(0.18) ? addDiscSet(out, id, film, runtime, rating, availability, rng, ctx) : [];
  const bonus = discIds.length > 1 && rng.chance(0.6) ? [discIds[1] as number] : [];

  out.titles.push(
    movieRow({
      id,
      title: film.title,
      year: film.year,
      runtime,
      rating,
      mpaa: film.mpaa,
      text,
      updated: ctx.now - rng.int(0, 400 * DAY),
    }),
  );
  for (const genre of film.genres) out.genres.push({ title_id: id, genre });
  out.availability.push(...availability);
  directors.forEach((p, i) => out.credits.push({ title_id: id, person_id: p.id, role: 'director', ordinal: i + 1 }));
  cast.forEach((p, i) => out.credits.push({ title_id: id, person_id: p.id, role: 'cast', ordinal: i + 1 }));
  out.details.push(detailsRow(rng, { titleId: id, kind: 'film', year: film.year, formats, rating, bonus }));
}

/** A 1–2 disc set: disc 1 holds the film, disc 2 its extras; discs ship only. */
function addDiscSet(
  out: CatalogBatch,
  movieId: number,
  film: SeedFilm,
  runtime: number,
  rating: number,
  movieRows: readonly AvailabilityTable[],
  rng: Rng,
  ctx: FilmContext,
): number[] {
  const count = rng.chance(0.4) ? 2 : 1;
  const ids: number[] = [];
  for (let d = 1; d <= count; d++) {
    const id = ctx.nextDiscId();
    ids.push(id);
    const title = `${film.title}: Disc ${d}`;
    const availability = inheritRows(id, movieRows, DISC_FORMATS);
    out.titles.push({
      id,
      type: 'disc',
      title,
      short_title: shortTitle(title),
      release_year: film.year,
      runtime: d === 1 ? runtime : rng.int(30, 90) * 60,
      average_rating: rating,
      mpaa_rating: film.mpaa,
      tv_rating: null,
      parent_id: movieId,
      series_id: null,
      sequence: d,
      synopsis:
        d === 1
          ? `The feature film ${escapeHtml(film.title)} on disc.`
          : `Bonus features for ${escapeHtml(film.title)}: featurettes, trailers and more.`,
      short_synopsis: d === 1 ? `${film.title}, disc ${d} of ${count}.` : `Bonus disc for ${film.title}.`,
      updated: ctx.now - rng.int(0, 400 * DAY),
    });
    for (const genre of film.genres) out.genres.push({ title_id: id, genre });
    out.availability.push(...availability);
    const formats = availability.map((a) => a.format as TitleFormat);
    out.details.push(detailsRow(rng, { titleId: id, kind: 'film', year: film.year, formats, rating, awards: false }));
  }
  return ids;
}
