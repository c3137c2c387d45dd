/** Latencies as counts per 1%-wide bucket: small to send between processes, merged by adding. */
export type Histogram = Record<number, number>;

const SMALLEST_MS = 0.01;
const GROWTH = Math.log(1.01);

export function record(h: Histogram, ms: number): void {
  const bucket = ms <= SMALLEST_MS ? 0 : Math.ceil(Math.log(ms / SMALLEST_MS) / GROWTH);
  h[bucket] = (h[bucket] ?? 0) + 1;
}

export function merge(into: Histogram, from: Histogram): void {
  for (const [bucket, n] of Object.entries(from)) into[Number(bucket)] = (into[Number(bucket)] ?? 0) + n;
}

/** The latency at quantile `p` (0–1), to within 1%; 0 for an empty histogram. */
export function quantile(h: Histogram, p: number): number {
  const buckets = Object.keys(h)
    .map(Number)
    .sort((a, b) => a - b);
  const total = buckets.reduce((n, b) => n + h[b]!, 0);
  let seen = 0;
  for (const b of buckets) {
    seen += h[b]!;
    if (seen >= p * total) return SMALLEST_MS * Math.exp(b * GROWTH);
  }
  return 0;
}
