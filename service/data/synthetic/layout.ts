/**
 * Where each synthetic title lives, computable from (seed, count, block) alone: every block of
 * 1,000 ids holds movies first, then a few whole series. Lets similars point anywhere without state.
 */
import { GENRES, type Genre } from '../../../shared/protocol/index.ts';
import { rngFor } from '../rng.ts';
import { planSeries, seriesSize, type SeasonPlan } from '../invent/tv.ts';

export const SYNTHETIC_IDS = { titles: 100_000_001, people: 30_000_001 } as const;
export const BLOCK = 1_000;
/** About 2% of all titles are TV (series with their seasons, episodes and discs), within `count`. */
const TV_SHARE = 0.02;
const MAX_SEASONS = 3;
/** Mean titles per series for MAX_SEASONS = 3: 1 + 2 seasons × (1 + 9.5 episodes + 3 discs). */
const MEAN_SERIES_SIZE = 28;

export const FILM_GENRES = GENRES.filter((g): g is Exclude<Genre, 'Television'> => g !== 'Television');

export interface SeriesSlot {
  id: number;
  plan: SeasonPlan[];
}

export interface BlockLayout {
  block: number;
  /** first id of the block */
  start: number;
  /** ids start … start+movies−1 are movies */
  movies: number;
  series: SeriesSlot[];
}

export class SyntheticLayout {
  readonly blocks: number;
  private readonly cache = new Map<number, BlockLayout>();

  constructor(
    readonly seed: number,
    readonly count: number,
  ) {
    this.blocks = Math.ceil(count / BLOCK);
  }

  blockSize(block: number): number {
    return Math.min(BLOCK, this.count - block * BLOCK);
  }

  /** Cached: at most one small entry per block (1,000 for a million titles). */
  layout(block: number): BlockLayout {
    let l = this.cache.get(block);
    if (!l) {
      l = this.compute(block);
      this.cache.set(block, l);
    }
    return l;
  }

  private compute(block: number): BlockLayout {
    const size = this.blockSize(block);
    const start = SYNTHETIC_IDS.titles + block * BLOCK;
    const rng = rngFor(this.seed, block, 'layout');
    // A whole number of series whose expected size is the block's TV share (0 or 1 in most blocks).
    const wanted = Math.floor((size * TV_SHARE) / MEAN_SERIES_SIZE + rng.next());
    const plans: SeasonPlan[][] = [];
    let tv = 0;
    for (let i = 0; i < wanted; i++) {
      const plan = planSeries(rng, MAX_SEASONS);
      if (tv + seriesSize(plan) > size) break;
      plans.push(plan);
      tv += seriesSize(plan);
    }
    const movies = size - tv;
    let id = start + movies;
    const series = plans.map((plan) => {
      const slot = { id, plan };
      id += seriesSize(plan);
      return slot;
    });
    return { block, start, movies, series };
  }

  /** Global movie number n (0-based over all ids) → whether it is a movie slot. */
  isMovie(n: number): boolean {
    if (n < 0 || n >= this.count) return false;
    return n % BLOCK < this.layout(Math.floor(n / BLOCK)).movies;
  }

  /** A movie's genre bucket: arithmetic on its number, so same-genre ids can be found by stepping. */
  static primaryGenre(n: number): Exclude<Genre, 'Television'> {
    return FILM_GENRES[n % FILM_GENRES.length] as Exclude<Genre, 'Television'>;
  }

  static seriesGenre(seed: number, seriesId: number): Exclude<Genre, 'Television'> {
    return rngFor(seed, seriesId, 'series-genre').pick(FILM_GENRES);
  }
}
