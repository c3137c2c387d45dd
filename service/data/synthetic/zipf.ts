/** Zipf–Mandelbrot draws over ranked lists: rank r (1-based) comes with probability ∝ 1/(r + q)^s. */
import type { Rng } from '../rng.ts';

export class ZipfDraw {
  /** cumulative[i] = Σ 1/(r + q)^s for r = 1 … i+1 */
  private readonly cumulative: Float64Array;

  constructor(
    readonly size: number,
    readonly exponent: number,
    /** q: flattens the very top, as word counts of real text are (Mandelbrot's correction). */
    readonly offset = 0,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`a Zipf draw needs at least one rank, not ${size}`);
    this.cumulative = new Float64Array(size);
    let sum = 0;
    for (let r = 1; r <= size; r++) {
      sum += (r + offset) ** -exponent;
      this.cumulative[r - 1] = sum;
    }
  }

  /** A 0-based index: 0 the most likely, size−1 the least. */
  index(rng: Rng): number {
    const target = rng.next() * (this.cumulative[this.size - 1] as number);
    // The first rank whose cumulative weight passes the target (binary search: 18 steps for 250k ranks).
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  pick<T>(rng: Rng, ranked: readonly T[]): T {
    return ranked[this.index(rng)] as T;
  }
}
