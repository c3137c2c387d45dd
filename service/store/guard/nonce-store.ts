import type { NonceHash } from './nonce-hash.ts';
import { NonceSet } from './nonce-set.ts';

/** Seconds of timestamps one set holds: a whole set is dropped once the window refuses them all. */
export const BUCKET_SECONDS = 10;

/**
 * The nonces a process has seen, as keyed 64-bit hashes in one typed-array set per 10 s of
 * timestamps. A claim looks in the one set its timestamp falls in (the timestamp is part of what
 * a nonce is known by); sets are dropped whole, so forgetting costs nothing per nonce and can
 * never fall behind the request rate.
 */
export class NonceStore {
  private readonly buckets = new Map<number, NonceSet>();
  private oldest = Infinity;

  /** Records the nonce; false when it was recorded already (a replay). */
  claim(hash: NonceHash, timestamp: number): boolean {
    const bucket = Math.floor(timestamp / BUCKET_SECONDS);
    let set = this.buckets.get(bucket);
    if (!set) {
      set = new NonceSet();
      this.buckets.set(bucket, set);
      this.oldest = Math.min(this.oldest, bucket);
    }
    return set.add(hash.lo, hash.hi);
  }

  /** Drops every set whose timestamps are all before `timestamp`. */
  forgetBefore(timestamp: number): void {
    const first = Math.floor(timestamp / BUCKET_SECONDS); // the set holding `timestamp` stays
    if (this.oldest >= first) return;
    this.oldest = Infinity;
    for (const bucket of [...this.buckets.keys()]) {
      if (bucket < first) this.buckets.delete(bucket);
      else this.oldest = Math.min(this.oldest, bucket);
    }
  }

  /** Nonces held. */
  get size(): number {
    let n = 0;
    for (const set of this.buckets.values()) n += set.size;
    return n;
  }

  /** Bytes of the typed arrays that hold them. */
  get bytes(): number {
    let n = 0;
    for (const set of this.buckets.values()) n += set.bytes;
    return n;
  }

  /** Each set's entries, packed (saved at a clean close). */
  *packed(): Iterable<[bucket: number, bytes: Buffer]> {
    for (const [bucket, set] of this.buckets) yield [bucket, set.toBuffer()];
  }

  /** Takes back a set `packed` gave. */
  restore(bucket: number, bytes: Uint8Array): void {
    this.buckets.set(bucket, NonceSet.fromBuffer(bytes));
    this.oldest = Math.min(this.oldest, bucket);
  }
}
