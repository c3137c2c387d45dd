/**
 * A scale catalog of invented titles for load tests: `count` titles (movies, plus series that with
 * their seasons, episodes and discs make up ~2% of them), ~count/4 invented people, batches of
 * 1,000 titles, memory bounded by one batch. Ids sit above the demo's: it can load on top of it.
 */
import { MPAA_RATINGS, type Genre } from '../../../shared/protocol/index.ts';
import { availabilityRows, filmFormats, pickState } from '../invent/availability.ts';
import { appendBatch, emptyBatch, type CatalogBatch } from '../catalog-batch.ts';
import { InventedPool } from '../invent/cast.ts';
import { detailsRow } from '../invent/details.ts';
import { movieRow } from '../invent/movie-row.ts';
import { rngFor } from '../rng.ts';
import { SyntheticNames } from './people.ts';
import { syntheticSimilars } from './similars.ts';
import { SyntheticTitles } from './titles.ts';
import { BLOCK, FILM_GENRES, SYNTHETIC_IDS, SyntheticLayout, type BlockLayout } from './layout.ts';
import { inventedBio, synopsis } from '../invent/text.ts';
import { buildSeries } from '../invent/tv.ts';

const DAY = 86_400;
/** The people pool: a twentieth direct (every movie has one), the rest act; named from faker's English names. */
export function syntheticPool(count: number, seed = 1): InventedPool {
  const size = Math.max(60, Math.ceil(count / 4));
  const names = new SyntheticNames(seed);
  return new InventedPool(SYNTHETIC_IDS.people, size, Math.max(5, Math.floor(size / 20)), (i) => names.nameOf(i), 1.5);
}

/** A movie's director, by arithmetic: movie n and n ± k·directors share one. */
export function directorIndex(pool: InventedPool, n: number): number {
  return pool.performers + (n % pool.directors);
}

export function* syntheticCatalog(count: number, now: number, seed = 1): Generator<CatalogBatch> {
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
    throw new RangeError(`count must be 1…1,000,000, not ${count}`);
  const layout = new SyntheticLayout(seed, count);
  const pool = syntheticPool(count, seed);
  const titles = new SyntheticTitles(seed);
  const peoplePerBlock = Math.ceil(pool.size / layout.blocks);
  for (let b = 0; b < layout.blocks; b++) {
    const batch = emptyBatch();
    const l = layout.layout(b);
    for (let k = 0; k < l.movies; k++) addMovie(batch, b * BLOCK + k, l, { pool, layout, titles }, now);
    for (const s of l.series) addSeries(batch, s.id, s.plan, { pool, layout, titles }, now);
    const first = b * peoplePerBlock;
    for (let i = first; i < Math.min(pool.size, first + peoplePerBlock); i++) {
      const p = pool.person(i);
      batch.people.push({
        id: p.id,
        name: p.name,
        bio: inventedBio(rngFor(seed, p.id, 'bio'), p.name, undefined, pool.isDirector(i) ? 'director' : 'performer'),
      });
    }
    yield batch;
  }
}

/** What every title of one catalog is made with. */
interface Makers {
  pool: InventedPool;
  layout: SyntheticLayout;
  titles: SyntheticTitles;
}

function addMovie(batch: CatalogBatch, n: number, l: BlockLayout, { pool, layout, titles }: Makers, now: number): void {
  const id = l.start + (n % BLOCK);
  const rng = rngFor(layout.seed, id, 'movie');
  const lastYear = new Date(now * 1000).getUTCFullYear();
  const year = Math.max(1920, lastYear - Math.floor(rng.next() ** 2 * 90));
  const genres: Genre[] = [SyntheticLayout.primaryGenre(n)];
  if (rng.chance(0.4)) {
    const extra = rng.pick(FILM_GENRES);
    if (extra !== genres[0]) genres.push(extra);
  }
  const director = pool.person(directorIndex(pool, n));
  const cast = pool.pick(rng, rng.int(3, 8));
  const text = synopsis(rng, { year, genres, directors: [director], cast, kind: 'film' });
  const title = titles.titleFor(id, 'film');
  const rating = Math.round((1.5 + rng.next() * 3.5) * 10) / 10;
  const formats = filmFormats(rng, year);
  // Properties are evaluated in order, so the rng draws stay those of the seeded catalog.
  batch.titles.push(
    movieRow({
      id,
      title,
      year,
      runtime: rng.int(75, 150) * 60,
      rating,
      mpaa: rng.pick(MPAA_RATINGS),
      text,
      updated: now - rng.int(0, 400 * DAY),
    }),
  );
  for (const genre of genres) batch.genres.push({ title_id: id, genre });
  batch.availability.push(...availabilityRows(id, formats, rng, now, pickState(rng)));
  batch.credits.push({ title_id: id, person_id: director.id, role: 'director', ordinal: 1 });
  cast.forEach((p, i) => batch.credits.push({ title_id: id, person_id: p.id, role: 'cast', ordinal: i + 1 }));
  batch.similars.push(...syntheticSimilars.forMovie(id, n, pool, layout, rng));
  batch.details.push(detailsRow(rng, { titleId: id, kind: 'film', year, formats, rating }));
}

function addSeries(
  batch: CatalogBatch,
  id: number,
  plan: BlockLayout['series'][number]['plan'],
  { pool, layout, titles }: Makers,
  now: number,
): void {
  const rng = rngFor(layout.seed, id, 'series');
  const lastYear = new Date(now * 1000).getUTCFullYear();
  const firstYear = lastYear - rng.int(plan.length, 25);
  const genre = SyntheticLayout.seriesGenre(layout.seed, id);
  const name = titles.titleFor(id, 'series');
  appendBatch(batch, buildSeries({ id, name, genre, plan, firstYear, now, rng, cast: pool }));
  batch.similars.push(...syntheticSimilars.forSeries(id, genre, layout, rng));
}
