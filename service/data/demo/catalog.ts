/**
 * The demo catalog: ~3,800 real films from the committed seed (with synthetic cast, synopses and
 * availability) plus 40 invented TV series. Deterministic given `now`, which moves only the time fields.
 */
import { GENRES, type Genre } from '../../../shared/protocol/index.ts';
import { appendBatch, emptyBatch, type CatalogBatch } from '../catalog-batch.ts';
import { InventedPool } from '../invent/cast.ts';
import { addFilm } from './films.ts';
import { demoPeople, realDirectors } from './people.ts';
import { seriesTitle } from '../invent/names.ts';
import { partitionBatch } from '../partition.ts';
import { hashString, Rng } from '../rng.ts';
import { readDemoSeed } from '../seed-format.ts';
import { similarsFor, type SimilarCandidate } from '../invent/similars.ts';
import { buildSeries, planSeries, seriesSize } from '../invent/tv.ts';

/** Id ranges: each kind has room to grow without renumbering the others. */
export const DEMO_IDS = {
  movies: 60_000_001,
  tv: 60_500_001,
  movieDiscs: 60_900_001,
  realDirectors: 20_000_001,
  inventedPeople: 21_000_001,
} as const;

const SEED = hashString('marquee-demo-catalog');
const SERIES_COUNT = 40;
/** Invented performers and episode directors shared by all titles, so filmographies overlap. */
const POOL_SIZE = 2_600;
const POOL_DIRECTORS = 120;
const BATCH_TITLES = 500;

const SERIES_GENRES = GENRES.filter(
  (g): g is Exclude<Genre, 'Television'> => g !== 'Television' && g !== 'Documentary',
);

const genreMask = (genres: readonly string[]): number =>
  genres.reduce((m, g) => (g === 'Television' ? m : m | (1 << GENRES.indexOf(g as Genre))), 0);

export function* demoCatalog(now: number): Generator<CatalogBatch> {
  const films = readDemoSeed();
  const directors = realDirectors(
    films.flatMap((f) => f.directors),
    DEMO_IDS.realDirectors,
  );
  const pool = new InventedPool(DEMO_IDS.inventedPeople, POOL_SIZE, POOL_DIRECTORS);
  const all = emptyBatch();

  let discId = DEMO_IDS.movieDiscs;
  const ctx = { seed: SEED, now, cast: pool, directors, nextDiscId: () => discId++ };
  films.forEach((film, i) => addFilm(all, DEMO_IDS.movies + i, film, ctx));

  const rng = new Rng(SEED);
  const lastYear = new Date(now * 1000).getUTCFullYear();
  let tvId = DEMO_IDS.tv;
  for (let s = 0; s < SERIES_COUNT; s++) {
    const seriesRng = rng.fork(s);
    const plan = planSeries(seriesRng, 6);
    const firstYear = Math.min(lastYear, seriesRng.int(1994, 2012));
    appendBatch(
      all,
      buildSeries({
        id: tvId,
        name: seriesTitle(s),
        genre: seriesRng.pick(SERIES_GENRES),
        plan,
        firstYear,
        now,
        rng: seriesRng,
        cast: pool,
      }),
    );
    tvId += seriesSize(plan);
  }

  all.similars.push(
    ...similarsFor(
      candidates(all, (t) => t.type === 'movie'),
      SEED,
    ),
  );
  all.similars.push(
    ...similarsFor(
      candidates(all, (t) => t.type === 'series'),
      SEED + 1,
    ),
  );
  all.people.push(...demoPeople(SEED, directors, pool, all.titles, all.credits));

  yield* partitionBatch(all, BATCH_TITLES);
}

function candidates(all: CatalogBatch, keep: (t: CatalogBatch['titles'][number]) => boolean): SimilarCandidate[] {
  const genres = new Map<number, string[]>();
  for (const g of all.genres) {
    const list = genres.get(g.title_id);
    if (list) list.push(g.genre);
    else genres.set(g.title_id, [g.genre]);
  }
  const directors = new Map<number, number[]>();
  for (const c of all.credits) {
    if (c.role !== 'director') continue;
    const list = directors.get(c.title_id);
    if (list) list.push(c.person_id);
    else directors.set(c.title_id, [c.person_id]);
  }
  return all.titles.filter(keep).map((t) => ({
    id: t.id,
    genreMask: genreMask(genres.get(t.id) ?? []),
    directors: directors.get(t.id) ?? [],
    year: t.release_year,
  }));
}
