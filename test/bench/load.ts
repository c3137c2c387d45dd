import { RawConnection } from './raw-http.ts';

/** One load run: `connections` keep-alive connections, each sending its next request as soon as the last one ends. */
export interface LoadOptions {
  port: number;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** The next request to send: path and headers (a signed scenario builds a fresh signature here). */
  next: () => { path: string; headers: Record<string, string> };
  /** Called when the measured window opens and closes (the caller samples CPU there). */
  onWindow?: (edge: 'start' | 'end') => void;
  /**
   * Instead of timed windows: exactly this many requests (`next` gives each), the first `warmup`
   * of them not measured; the window runs from the first measured request sent to the last answered.
   */
  requests?: { warmup: number; measured: number } | undefined;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  /** Responses by status code, measured window only. */
  statuses: Record<string, number>;
  errors: number;
  /** Mean bytes per response body as received (compressed when gzip was asked for). */
  bytesPerResponse: number;
  /** Content-Encoding of the last response, if any. */
  contentEncoding: string | undefined;
  /** Every measured latency in ms, ascending (merged across client processes). */
  latencies: Float64Array;
}

/**
 * A closed-loop load generator: N workers, each with its own keep-alive connection (raw-http.ts),
 * so there are exactly N connections and N requests in flight. Latencies are recorded only inside
 * the measured window, after a warm-up.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const host = `Host: 127.0.0.1:${options.port}\r\n`;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let bytes = 0;
  let contentEncoding: string | undefined;
  let stopped = false;
  let sent = 0;
  const window = { start: 0n, end: 0n };
  const counted = options.requests;
  const measuredFrom = counted ? counted.warmup : Number.POSITIVE_INFINITY;
  let measuring = false;

  const once = async (connection: RawConnection) => {
    const k = sent++;
    // Counted: request k is measured by its number; timed: by whether it ends inside the window.
    const counts = () => (counted ? k >= measuredFrom : measuring);
    if (counted && k === measuredFrom) openWindow();
    const { path, headers } = options.next();
    let request = `GET ${path} HTTP/1.1\r\n${host}`;
    for (const name in headers) request += `${name}: ${headers[name]}\r\n`;
    const started = process.hrtime.bigint();
    try {
      const res = await connection.send(request + '\r\n');
      if (!counts()) return;
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      const code = String(res.status);
      statuses[code] = (statuses[code] ?? 0) + 1;
      bytes += res.bodyBytes;
      contentEncoding = res.contentEncoding;
    } catch {
      if (counts()) errors++;
    }
  };

  const openWindow = () => {
    measuring = true;
    window.start = process.hrtime.bigint();
    options.onWindow?.('start');
  };
  const closeWindow = () => {
    measuring = false;
    window.end = process.hrtime.bigint();
    options.onWindow?.('end');
  };
  const total = counted ? counted.warmup + counted.measured : Number.POSITIVE_INFINITY;
  const connections: RawConnection[] = [];
  const worker = async () => {
    const connection = new RawConnection(options.port);
    connections.push(connection);
    while (!stopped && sent < total) await once(connection);
  };
  const workers = Array.from({ length: options.connections }, worker);

  if (counted) {
    await Promise.all(workers);
    if (counted.measured > 0) closeWindow();
  } else {
    await sleep(options.warmupMs);
    openWindow();
    await sleep(options.durationMs);
    closeWindow();
    stopped = true;
    await Promise.all(workers);
  }
  for (const c of connections) c.close();

  const seconds = Number(window.end - window.start) / 1e9;
  const sorted = Float64Array.from(latencies).sort();
  return summarize(sorted, seconds, statuses, errors, bytes, contentEncoding);
}

/** The figures of a run from its sorted latencies (also how client-process.ts merges several). */
export function summarize(
  latencies: Float64Array,
  seconds: number,
  statuses: Record<string, number>,
  errors: number,
  bytes: number,
  contentEncoding: string | undefined,
): LoadResult {
  const requests = latencies.length;
  let sum = 0;
  for (const l of latencies) sum += l;
  return {
    requests,
    seconds,
    rps: seconds > 0 ? requests / seconds : 0,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    mean: requests ? sum / requests : 0,
    statuses,
    errors,
    bytesPerResponse: requests ? bytes / requests : 0,
    contentEncoding,
    latencies,
  };
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
