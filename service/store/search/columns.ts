/** A Uint32Array that grows by doubling (the builder's columns: no array of boxed numbers per title). */
export class Column {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  /** Where `value` is among the entries from index `from` on, or -1. */
  indexSince(from: number, value: number): number {
    for (let i = from; i < this.length; i++) if (this.data[i] === value) return i;
    return -1;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/** UTF-8 text appended piece by piece into one growing byte array. */
export class Utf8Column {
  data = new Uint8Array(64 * 1024);
  length = 0;
  private readonly encoder = new TextEncoder();
  append(text: string): void {
    if (this.length + text.length * 3 > this.data.length) {
      const grown = new Uint8Array(Math.max(this.data.length * 2, this.length + text.length * 3));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.length += this.encoder.encodeInto(text, this.data.subarray(this.length)).written;
  }
}
