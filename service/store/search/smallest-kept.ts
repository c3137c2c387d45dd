/** The `size` smallest numbers offered (a max-heap: each offer costs one comparison once it is full). */
export class SmallestKept {
  private readonly heap: Uint32Array;
  private length = 0;
  constructor(private readonly size: number) {
    this.heap = new Uint32Array(size);
  }
  offer(value: number): void {
    const h = this.heap;
    if (this.length < this.size) {
      let c = this.length++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (h[parent]! >= value) break;
        h[c] = h[parent]!;
        c = parent;
      }
      h[c] = value;
      return;
    }
    if (value >= h[0]!) return;
    let c = 0;
    for (;;) {
      const left = 2 * c + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const larger = right < this.size && h[right]! > h[left]! ? right : left;
      if (h[larger]! <= value) break;
      h[c] = h[larger]!;
      c = larger;
    }
    h[c] = value;
  }
  sorted(): Uint32Array {
    return this.heap.slice(0, this.length).sort();
  }
}
