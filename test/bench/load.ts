import http from 'node:http';

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
  requests?: { warmup: number; measured: number };
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
 * A closed-loop load generator on node:http: N workers share one keep-alive Agent capped at N sockets,
 * so there are exactly N connections and N requests in flight. Latencies are recorded only inside the
 * measured window, after a warm-up.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
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

  const once = () =>
    new Promise<void>((resolve) => {
      const k = sent++;
      // Counted: request k is measured by its number; timed: by whether it ends inside the window.
      const counts = () => (counted ? k >= measuredFrom : measuring);
      if (counted && k === measuredFrom) openWindow();
      const { path, headers } = options.next();
      const started = process.hrtime.bigint();
      const req = http.request({ host: '127.0.0.1', port: options.port, path, headers, agent }, (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => (size += chunk.length));
        res.on('end', () => {
          if (counts()) {
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            const code = String(res.statusCode);
            statuses[code] = (statuses[code] ?? 0) + 1;
            bytes += size;
            contentEncoding = res.headers['content-encoding'];
          }
          resolve();
        });
      });
      req.on('error', () => {
        if (counts()) errors++;
        resolve();
      });
      req.end();
    });

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
  const worker = async () => {
    while (!stopped && sent < total) await once();
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
  agent.destroy();

  const seconds = Number(window.end - window.start) / 1e9;
  const sorted = Float64Array.from(latencies).sort();
  return summarize(sorted, seconds, statuses, errors, bytes, contentEncoding);
}

/** The figures of a run from its sorted latencies (also how client-process.ts merges several). */
export function summarize(latencies: Float64Array, seconds: number, statuses: Record<string, number>, errors: number, bytes: number, contentEncoding: string | undefined): LoadResult {
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
