/** Similar titles for an in-memory catalog: shared directors weigh most, then shared genres. */
import type { SimilarsTable } from '../store/schema.ts';
import { mix } from './rng.ts';

export interface SimilarCandidate {
  id: number;
  /** bit i set when the title has genre i (Television excluded by the caller if it would swamp) */
  genreMask: number;
  directors: readonly number[];
  year: number | null;
}

const MAX_SIMILARS = 10;
const DIRECTOR_WEIGHT = 4;

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * Up to 10 similars per title, never itself; ties broken by a per-pair hash so that titles with
 * the same genres do not all get the same list. O(n²) — fine for the few thousand demo titles.
 */
export function similarsFor(items: readonly SimilarCandidate[], seed: number): SimilarsTable[] {
  const out: SimilarsTable[] = [];
  const scores = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const a = items[i] as SimilarCandidate;
    const best: number[] = [];
    for (let j = 0; j < items.length; j++) {
      if (j === i) continue;
      const b = items[j] as SimilarCandidate;
      const shared = popcount(a.genreMask & b.genreMask);
      let directors = 0;
      for (const d of a.directors) if (b.directors.includes(d)) directors++;
      if (shared === 0 && directors === 0) continue;
      const era = a.year !== null && b.year !== null && Math.abs(a.year - b.year) <= 10 ? 0.5 : 0;
      scores[j] = directors * DIRECTOR_WEIGHT + shared + era + (mix(seed, a.id, b.id) % 1000) / 1000;
      insertTop(best, j, scores);
    }
    best.forEach((j, k) => out.push({ title_id: a.id, similar_id: (items[j] as SimilarCandidate).id, ordinal: k + 1 }));
  }
  return out;
}

/** Keeps `best` as the indexes of the highest scores, highest first, at most MAX_SIMILARS long. */
function insertTop(best: number[], j: number, scores: Float64Array): void {
  const s = scores[j] as number;
  if (best.length === MAX_SIMILARS && s <= (scores[best[best.length - 1] as number] as number)) return;
  let k = best.length;
  while (k > 0 && (scores[best[k - 1] as number] as number) < s) k--;
  best.splice(k, 0, j);
  if (best.length > MAX_SIMILARS) best.pop();
}
