/** Similar titles for an in-memory catalog: shared directors weigh most, then shared genres. */
import type { SimilarsTable } from '../../store/schema.ts';

export interface SimilarCandidate {
  id: number;
  /** bit i set when the title has genre i (Television excluded by the caller if it would swamp) */
  genreMask: number;
  directors: readonly number[];
  year: number | null;
}

const MAX_SIMILARS = 10;
const DIRECTOR_WEIGHT = 4;

/** Bits set in a genre mask (at most 14 genres), looked up rather than counted. */
const POPCOUNT = (() => {
  const t = new Uint8Array(1 << 14);
  for (let i = 1; i < t.length; i++) t[i] = (t[i >> 1] as number) + (i & 1);
  return t;
})();

/** A cheap per-pair tie-breaker in [0, 1): the same pair always gets the same value. */
function jitter(seed: number, a: number, b: number): number {
  let h = Math.imul(a ^ seed, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return ((h ^ (h >>> 12)) >>> 0) / 4294967296;
}

/**
 * Up to 10 similars per title, never itself; ties broken by a per-pair hash so that titles with
 * the same genres do not all get the same list. Titles are grouped by genre set and groups are
 * visited best overlap first, stopping once no member of a group could reach the top ten.
 */
export function similarsFor(items: readonly SimilarCandidate[], seed: number): SimilarsTable[] {
  const groups = new Map<number, number[]>();
  const byDirector = new Map<number, number[]>();
  items.forEach((x, i) => {
    (groups.get(x.genreMask) ?? groups.set(x.genreMask, []).get(x.genreMask)!).push(i);
    for (const d of x.directors) (byDirector.get(d) ?? byDirector.set(d, []).get(d)!).push(i);
  });
  const masks = [...groups.keys()].sort((a, b) => a - b);

  const out: SimilarsTable[] = [];
  const scores = new Float64Array(items.length);
  const scored = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const a = items[i] as SimilarCandidate;
    const best: number[] = [];
    const touched: number[] = [];
    const score = (j: number, base: number) => {
      const b = items[j] as SimilarCandidate;
      const era = a.year !== null && b.year !== null && Math.abs(a.year - b.year) <= 10 ? 0.5 : 0;
      scores[j] = base + era + jitter(seed, a.id, b.id);
      scored[j] = 1;
      touched.push(j);
      insertTop(best, j, scores);
    };
    for (const d of a.directors) {
      for (const j of byDirector.get(d) ?? []) {
        if (j === i || scored[j]) continue;
        const b = items[j] as SimilarCandidate;
        const shared = b.directors.filter((x) => a.directors.includes(x)).length;
        score(j, shared * DIRECTOR_WEIGHT + (POPCOUNT[a.genreMask & b.genreMask] as number));
      }
    }
    const overlaps = masks
      .map((m) => ({ m, shared: POPCOUNT[a.genreMask & m] as number }))
      .filter((o) => o.shared > 0)
      .sort((x, y) => y.shared - x.shared || x.m - y.m);
    for (const { m, shared } of overlaps) {
      // 1.5 is the most era and jitter can add: a full top ten this group cannot beat ends the search.
      if (best.length === MAX_SIMILARS && shared + 1.5 <= (scores[best[MAX_SIMILARS - 1] as number] as number)) break;
      for (const j of groups.get(m) as number[]) if (j !== i && !scored[j]) score(j, shared);
    }
    for (const j of touched) scored[j] = 0;
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
