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
  let measuring = false;
  let stopped = false;
  let windowStart = 0n;
  let windowEnd = 0n;

  const once = () =>
    new Promise<void>((resolve) => {
      const { path, headers } = options.next();
      const started = process.hrtime.bigint();
      const req = http.request({ host: '127.0.0.1', port: options.port, path, headers, agent }, (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => (size += chunk.length));
        res.on('end', () => {
          if (measuring) {
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
        if (measuring) errors++;
        resolve();
      });
      req.end();
    });

  const worker = async () => {
    while (!stopped) await once();
  };
  const workers = Array.from({ length: options.connections }, worker);

  await sleep(options.warmupMs);
  measuring = true;
  windowStart = process.hrtime.bigint();
  options.onWindow?.('start');
  await sleep(options.durationMs);
  measuring = false;
  windowEnd = process.hrtime.bigint();
  options.onWindow?.('end');
  stopped = true;
  await Promise.all(workers);
  agent.destroy();

  const seconds = Number(windowEnd - windowStart) / 1e9;
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    mean: requests ? latencies.reduce((a, b) => a + b, 0) / requests : 0,
    statuses,
    errors,
    bytesPerResponse: requests ? bytes / requests : 0,
    contentEncoding,
  };
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
