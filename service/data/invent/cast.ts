/** Where invented cast members and TV directors come from: a skewed pick, so some become regulars. */
import { inventedName } from './names.ts';
import type { Rng } from '../rng.ts';
import type { PersonRef } from './text.ts';

export interface CastSource {
  /** k distinct invented performers (fewer only if the pool is smaller) */
  pick(rng: Rng, k: number): PersonRef[];
  /** an invented director (episodes only: real films keep their real directors) */
  director(rng: Rng): PersonRef;
}

/** Raising a uniform draw to a power > 1 favours low indexes: a few busy performers, a long tail. */
function skewedIndex(rng: Rng, n: number, skew: number): number {
  return Math.min(n - 1, Math.floor(n * rng.next() ** skew));
}

/**
 * A pool of `size` people on ids firstId…firstId+size−1, named by `nameOf(i)` (the demo's invented names by default);
 * the last `directors` of them direct episodes. Nothing is stored: names are recomputed per id.
 */
export class InventedPool implements CastSource {
  readonly performers: number;

  constructor(
    readonly firstId: number,
    readonly size: number,
    readonly directors: number,
    readonly nameOf: (index: number) => string = inventedName,
    readonly skew = 1.3,
  ) {
    this.performers = size - directors;
  }

  person(index: number): PersonRef {
    return { id: this.firstId + index, name: this.nameOf(index) };
  }

  pick(rng: Rng, k: number): PersonRef[] {
    const want = Math.min(k, this.performers);
    const chosen = new Set<number>();
    while (chosen.size < want) chosen.add(skewedIndex(rng, this.performers, this.skew));
    return [...chosen].map((i) => this.person(i));
  }

  director(rng: Rng): PersonRef {
    return this.person(this.performers + skewedIndex(rng, this.directors, this.skew));
  }

  /** Whether the person at this index is one of the pool's directors (for their bio). */
  isDirector(index: number): boolean {
    return index >= this.performers;
  }
}
