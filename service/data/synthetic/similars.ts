/** Similars for synthetic titles, found by arithmetic on the layout instead of an index of everything. */
import type { SimilarsTable } from '../../store/schema.ts';
import type { InventedPool } from '../invent/cast.ts';
import type { Rng } from '../rng.ts';
import { BLOCK, FILM_GENRES, SYNTHETIC_IDS, SyntheticLayout } from './layout.ts';
import type { Genre } from '../../../shared/protocol/index.ts';

const MAX = 10;
const ATTEMPTS = 40;

function rows(titleId: number, ids: number[]): SimilarsTable[] {
  return ids.map((similar_id, i) => ({ title_id: titleId, similar_id, ordinal: i + 1 }));
}

/** Up to 3 films by the same director first (n ± k·directors), then films of the same genre bucket. */
function forMovie(id: number, n: number, pool: InventedPool, layout: SyntheticLayout, rng: Rng): SimilarsTable[] {
  const picked = new Set<number>();
  for (const k of [1, -1, 2, -2]) {
    const m = n + k * pool.directors;
    if (picked.size < 3 && m !== n && layout.isMovie(m)) picked.add(m);
  }
  const g = n % FILM_GENRES.length;
  for (let a = 0; a < ATTEMPTS && picked.size < MAX; a++) {
    const b = rng.int(0, layout.blocks - 1);
    const movies = layout.layout(b).movies;
    // First slot of block b whose global number falls in bucket g, then a random step of 13.
    const k0 =
      (((g - ((b * BLOCK) % FILM_GENRES.length)) % FILM_GENRES.length) + FILM_GENRES.length) % FILM_GENRES.length;
    if (k0 >= movies) continue;
    const m = b * BLOCK + k0 + FILM_GENRES.length * rng.int(0, Math.floor((movies - 1 - k0) / FILM_GENRES.length));
    if (m !== n) picked.add(m);
  }
  return rows(
    id,
    [...picked].map((m) => SYNTHETIC_IDS.titles + m),
  );
}

/** Other series, same genre preferred; a few of any genre when the catalog has too few. */
function forSeries(id: number, genre: Genre, layout: SyntheticLayout, rng: Rng): SimilarsTable[] {
  const same: number[] = [];
  const other: number[] = [];
  for (let a = 0; a < ATTEMPTS && same.length < MAX; a++) {
    const series = layout.layout(rng.int(0, layout.blocks - 1)).series;
    if (series.length === 0) continue;
    const s = rng.pick(series).id;
    if (s === id || same.includes(s) || other.includes(s)) continue;
    (SyntheticLayout.seriesGenre(layout.seed, s) === genre ? same : other).push(s);
  }
  return rows(id, [...same, ...other].slice(0, Math.max(same.length, Math.min(MAX, 3))));
}

export const syntheticSimilars = { forMovie, forSeries };
