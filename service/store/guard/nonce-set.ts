/** Slots a new set starts with (a power of two): 8 KB. */
const INITIAL_SLOTS = 1024;
/** The set doubles before more than this share of its slots is taken (linear probing stays short). */
const MAX_LOAD = 0.7;

/**
 * A set of 64-bit nonce hashes in one typed array, open addressing with linear probing: two 32-bit
 * words a slot, 0/0 meaning empty, so an entry costs 8 bytes over the load factor (11–23 bytes)
 * and no object the garbage collector has to walk. The hashes are keyed (nonce-hash.ts), so the low
 * word is a uniform slot index.
 */
export class NonceSet {
  private slots: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(slots = INITIAL_SLOTS) {
    this.slots = new Uint32Array(slots * 2);
    this.mask = slots - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of the typed array that holds the set. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Adds the hash; false when it was there already. */
  add(lo: number, hi: number): boolean {
    if (lo === 0 && hi === 0) lo = 1; // 0/0 marks an empty slot
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    const slots = this.slots;
    for (let i = lo & this.mask; ; i = (i + 1) & this.mask) {
      const a = slots[2 * i]!;
      const b = slots[2 * i + 1]!;
      if (a === 0 && b === 0) {
        slots[2 * i] = lo;
        slots[2 * i + 1] = hi;
        this.count++;
        return true;
      }
      if (a === lo && b === hi) return false;
    }
  }

  /** The entries packed two words each (what a clean close saves). */
  toBuffer(): Buffer {
    const packed = new Uint32Array(this.count * 2);
    let n = 0;
    for (let i = 0; i < this.slots.length; i += 2) {
      if (this.slots[i] === 0 && this.slots[i + 1] === 0) continue;
      packed[n++] = this.slots[i]!;
      packed[n++] = this.slots[i + 1]!;
    }
    return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  }

  /** A set holding the entries of `toBuffer`'s bytes. */
  static fromBuffer(bytes: Uint8Array): NonceSet {
    const words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    let slots = INITIAL_SLOTS;
    while (words.length / 2 > slots * MAX_LOAD) slots *= 2;
    const set = new NonceSet(slots);
    for (let i = 0; i + 1 < words.length; i += 2) set.add(words[i]!, words[i + 1]!);
    return set;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = old.length - 1; // old.length / 2 slots before, twice that now
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.add(old[i]!, old[i + 1]!);
  }
}
