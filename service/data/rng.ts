/** Seeded pseudo-random numbers, so every generated catalog is reproducible from its seed. */

/** 32-bit FNV-1a of a string; used to derive independent seeds from names. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A stateless 32-bit mix of integers: lets a value be recomputed from an id without any stored state. */
export function mix(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast and good enough for test data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.next() * xs.length)] as T;
  }

  /** Fisher–Yates in place; returns the same array for chaining. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = xs[i] as T;
      xs[i] = xs[j] as T;
      xs[j] = tmp;
    }
    return xs;
  }

  /** k distinct items of xs, in random order (k is clamped to xs.length). */
  sample<T>(xs: readonly T[], k: number): T[] {
    return this.shuffle(xs.slice()).slice(0, Math.min(k, xs.length));
  }

  /** A child generator whose stream does not depend on how much of this one is consumed later. */
  fork(label: string | number): Rng {
    return new Rng(mix(this.state, typeof label === 'number' ? label : hashString(label)));
  }
}

/** A generator seeded from an id and a purpose, for values that must be recomputable per id. */
export function rngFor(seed: number, id: number, purpose: string): Rng {
  return new Rng(mix(seed, id, hashString(purpose)));
}
