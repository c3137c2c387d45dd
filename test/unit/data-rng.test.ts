import { describe, expect, it } from 'vitest';
import { hashString, mix, Rng, rngFor } from '../../service/data/rng.ts';

describe('seeded random numbers', () => {
  it('repeats a stream for the same seed and differs for another', () => {
    const a = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.next()
      )(new Rng(42)),
    );
    const b = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.next()
      )(new Rng(42)),
    );
    const c = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.next()
      )(new Rng(43)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('keeps int within its inclusive bounds and reaches both ends', () => {
    const r = new Rng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) {
      const x = r.int(3, 7);
      expect(x).toBeGreaterThanOrEqual(3);
      expect(x).toBeLessThanOrEqual(7);
      seen.add(x);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('shuffles into a permutation and samples distinct items', () => {
    const r = new Rng(7);
    expect(r.shuffle([1, 2, 3, 4, 5, 6]).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const s = r.sample(['a', 'b', 'c', 'd'], 3);
    expect(new Set(s).size).toBe(3);
  });

  it('derives per-id streams that do not depend on call order', () => {
    expect(rngFor(1, 100, 'x').next()).toBe(rngFor(1, 100, 'x').next());
    expect(rngFor(1, 100, 'x').next()).not.toBe(rngFor(1, 101, 'x').next());
    expect(mix(1, 2)).not.toBe(mix(2, 1));
    expect(hashString('a')).not.toBe(hashString('b'));
  });
});
