/** A TV series with its seasons, episodes and disc sets, on consecutive ids (shared by demo and synthetic). */
import { TV_RATINGS, type Genre, type TitleFormat } from '../../../shared/protocol/index.ts';
import type { AvailabilityTable, TitlesTable } from '../../store/schema.ts';
import { availabilityRows, DISC_FORMATS, inheritRows, pickState, seasonFormats, unionRows } from './availability.ts';
import { emptyBatch, type CatalogBatch } from '../catalog-batch.ts';
import { detailsRow } from './details.ts';
import { episodeName } from './names.ts';
import type { Rng } from '../rng.ts';
import type { CastSource } from './cast.ts';
import { escapeHtml, shortTitle, synopsis, type PersonRef } from './text.ts';

export interface SeasonPlan {
  episodes: number;
  discs: number;
}

/** Sizes only, so a caller can lay out ids before generating anything. */
export function planSeries(rng: Rng, maxSeasons: number): SeasonPlan[] {
  const n = rng.int(1, maxSeasons);
  return Array.from({ length: n }, () => ({ episodes: rng.int(6, 13), discs: rng.int(2, 4) }));
}

/** Titles a plan occupies: the series, and per season itself, its episodes and its discs. */
export function seriesSize(plan: readonly SeasonPlan[]): number {
  return 1 + plan.reduce((n, s) => n + 1 + s.episodes + s.discs, 0);
}

export interface SeriesInput {
  /** the series' id; its seasons, episodes and discs follow on the next ids */
  id: number;
  name: string;
  genre: Exclude<Genre, 'Television'>;
  plan: readonly SeasonPlan[];
  firstYear: number;
  now: number;
  rng: Rng;
  cast: CastSource;
}

const round1 = (x: number): number => Math.round(Math.min(5, Math.max(1, x)) * 10) / 10;

export function buildSeries(input: SeriesInput): CatalogBatch {
  const { rng, now, name, plan } = input;
  const batch = emptyBatch();
  const genres: Genre[] = ['Television', input.genre];
  const tvRating = rng.pick(TV_RATINGS);
  const rating = round1(2.5 + rng.next() * 2);
  const episodeMinutes = rng.pick([22, 30, 44, 50, 60] as const);
  const regulars = input.cast.pick(rng, rng.int(3, 8));
  const lastYear = new Date(now * 1000).getUTCFullYear();
  const seriesId = input.id;
  let nextId = seriesId + 1;

  type Row = Omit<TitlesTable, 'tv_rating' | 'mpaa_rating' | 'updated' | 'short_title'> & { short_title?: string };
  interface Extras {
    cast: readonly PersonRef[];
    directors: readonly PersonRef[];
    availability: AvailabilityTable[];
    bonus?: number[];
  }
  const add = (row: Row, x: Extras): void => {
    batch.titles.push({
      ...row,
      short_title: row.short_title ?? shortTitle(row.title),
      tv_rating: tvRating,
      mpaa_rating: null,
      updated: now - rng.int(0, 400 * 86_400),
    });
    for (const genre of genres) batch.genres.push({ title_id: row.id, genre });
    x.cast.forEach((p, i) => batch.credits.push({ title_id: row.id, person_id: p.id, role: 'cast', ordinal: i + 1 }));
    x.directors.forEach((p, i) =>
      batch.credits.push({ title_id: row.id, person_id: p.id, role: 'director', ordinal: i + 1 }),
    );
    batch.availability.push(...x.availability);
    const formats = x.availability.map((a) => a.format as TitleFormat);
    batch.details.push(
      detailsRow(rng, {
        titleId: row.id,
        kind: 'tv',
        year: row.release_year,
        formats,
        rating: row.average_rating,
        bonus: x.bonus ?? [],
        awards: row.type === 'series',
      }),
    );
  };

  const seasonRows: AvailabilityTable[] = [];
  let firstEpisode = 0;
  plan.forEach((season, s) => {
    const number = s + 1;
    const seasonId = nextId++;
    const year = Math.min(lastYear, input.firstYear + s);
    const seasonTitle = `${name}: Season ${number}`;
    const own = availabilityRows(seasonId, seasonFormats(rng), rng, now, pickState(rng));
    seasonRows.push(...own);
    for (let e = 1; e <= season.episodes; e++) {
      const episodeId = nextId++;
      if (firstEpisode === 0) firstEpisode = episodeId;
      const epName = episodeName(seasonId, e);
      const guests = input.cast.pick(rng, rng.int(0, 2)).filter((g) => !regulars.some((r) => r.id === g.id));
      const cast = [...regulars.slice(0, rng.int(2, regulars.length)), ...guests];
      const director = input.cast.director(rng);
      const text = synopsis(rng, { year, genres, directors: [director], cast, kind: 'episode' });
      add(
        {
          id: episodeId,
          type: 'program',
          title: `${seasonTitle}: ${epName}`,
          short_title: epName,
          release_year: year,
          runtime: (episodeMinutes + rng.int(-2, 2)) * 60,
          average_rating: round1(rating + (rng.next() - 0.5)),
          parent_id: seasonId,
          series_id: seriesId,
          sequence: e,
          synopsis: text.synopsis,
          short_synopsis: text.short,
        },
        { cast, directors: [director], availability: inheritRows(episodeId, own, ['instant']) },
      );
    }
    const discIds: number[] = [];
    const perDisc = Math.ceil(season.episodes / season.discs);
    for (let d = 1; d <= season.discs; d++) {
      const discId = nextId++;
      discIds.push(discId);
      const onDisc = Math.max(1, Math.min(perDisc, season.episodes - (d - 1) * perDisc));
      add(
        {
          id: discId,
          type: 'disc',
          title: `${seasonTitle}: Disc ${d}`,
          release_year: year,
          runtime: onDisc * episodeMinutes * 60,
          average_rating: null,
          parent_id: seasonId,
          series_id: seriesId,
          sequence: d,
          synopsis: `Disc ${d} of ${season.discs} of ${escapeHtml(seasonTitle)}.`,
          short_synopsis: `Disc ${d} of ${seasonTitle}.`,
        },
        { cast: [], directors: [], availability: inheritRows(discId, own, DISC_FORMATS) },
      );
    }
    const text = synopsis(rng, { year, genres, directors: [], cast: regulars, kind: 'series' });
    add(
      {
        id: seasonId,
        type: 'season',
        title: seasonTitle,
        release_year: year,
        runtime: season.episodes * episodeMinutes * 60,
        average_rating: round1(rating + (rng.next() - 0.5) * 0.6),
        parent_id: seriesId,
        series_id: seriesId,
        sequence: number,
        synopsis: `Season ${number} of ${escapeHtml(name)}. ${text.synopsis}`,
        short_synopsis: `Season ${number} of ${name}.`,
      },
      {
        cast: regulars,
        directors: [],
        availability: own,
        bonus: rng.chance(0.3) ? [discIds[discIds.length - 1] as number] : [],
      },
    );
  });

  const text = synopsis(rng, { year: input.firstYear, genres, directors: [], cast: regulars, kind: 'series' });
  add(
    {
      id: seriesId,
      type: 'series',
      title: name,
      release_year: input.firstYear,
      runtime: null,
      average_rating: rating,
      parent_id: null,
      series_id: null,
      sequence: null,
      synopsis: text.synopsis,
      short_synopsis: text.short,
    },
    {
      cast: regulars,
      directors: [],
      availability: unionRows(seriesId, seasonRows),
      bonus: rng.chance(0.4) && firstEpisode !== 0 ? [firstEpisode] : [],
    },
  );
  return batch;
}
