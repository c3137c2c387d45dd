import type { Metric, Registry } from 'prom-client';

/** Request durations: the kept-GET path answers in tens of µs, a queue write or a 1M-title search in ms. */
export const REQUEST_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];

const REQUESTS = 'marquee_http_requests_total';
const DURATIONS = 'marquee_http_request_duration_seconds';

/** One route, method and status: its count, summed seconds and count per bucket (not cumulative; the last is +Inf). */
interface Series {
  route: string;
  method: string;
  status: string;
  count: number;
  sum: number;
  buckets: Float64Array;
}

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * Answered requests counted in plain numbers, read by the registry only when scraped. prom-client's
 * own Counter and Histogram hash their labels on every increment (≈ 2 µs a request together,
 * measured): on the kept-GET path, at tens of thousands of requests a second, that was the largest
 * part of what metrics cost. Here a request is one map lookup and a few additions.
 */
export class RequestTally {
  /** By route, then status (a method's series among a handful): no key string is built per request. */
  private readonly byRoute = new Map<string, Map<number, Series[]>>();

  /** Registers the request counter and the duration histogram, both read from this tally. */
  constructor(registry: Registry) {
    registry.registerMetric(
      tallied(REQUESTS, 'counter', 'Requests answered, by route pattern, transport method and status code.', () =>
        this.counts(),
      ),
    );
    registry.registerMetric(
      tallied(
        DURATIONS,
        'histogram',
        'Time from a request’s arrival to its answer, by route pattern and transport method.',
        () => this.durations(),
      ),
    );
  }

  record(route: string, method: string, status: number, seconds: number): void {
    const s = this.seriesOf(route, method, status);
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]!) i++;
    s.buckets[i]!++;
  }

  private seriesOf(route: string, method: string, status: number): Series {
    let byStatus = this.byRoute.get(route);
    if (!byStatus) this.byRoute.set(route, (byStatus = new Map<number, Series[]>()));
    let list = byStatus.get(status);
    if (!list) byStatus.set(status, (list = []));
    for (const s of list) if (s.method === method) return s;
    const s: Series = {
      route,
      method,
      status: String(status),
      count: 0,
      sum: 0,
      buckets: new Float64Array(REQUEST_BUCKETS.length + 1),
    };
    list.push(s);
    return s;
  }

  private *series(): Iterable<Series> {
    for (const byStatus of this.byRoute.values()) for (const list of byStatus.values()) yield* list;
  }

  private counts(): Sample[] {
    return [...this.series()].map((s) => ({
      labels: { route: s.route, method: s.method, status: s.status },
      value: s.count,
    }));
  }

  /** The histogram by route and method: the statuses' series summed, buckets made cumulative. */
  private durations(): Sample[] {
    const merged = new Map<string, { route: string; method: string; sum: number; buckets: Float64Array }>();
    for (const s of this.series()) {
      const key = `${s.method} ${s.route}`;
      let m = merged.get(key);
      if (!m) {
        m = { route: s.route, method: s.method, sum: 0, buckets: new Float64Array(REQUEST_BUCKETS.length + 1) };
        merged.set(key, m);
      }
      m.sum += s.sum;
      for (let i = 0; i < s.buckets.length; i++) m.buckets[i]! += s.buckets[i]!;
    }
    const out: Sample[] = [];
    for (const m of merged.values()) {
      const labels = { route: m.route, method: m.method };
      let cumulative = 0;
      m.buckets.forEach((n, i) => {
        cumulative += n;
        const le = i < REQUEST_BUCKETS.length ? REQUEST_BUCKETS[i]! : '+Inf';
        out.push({ labels: { le, ...labels }, value: cumulative, metricName: `${DURATIONS}_bucket` });
      });
      out.push({ labels, value: m.sum, metricName: `${DURATIONS}_sum` });
      out.push({ labels, value: cumulative, metricName: `${DURATIONS}_count` });
    }
    return out;
  }
}

/**
 * A metric the registry reads through `get()` at scrape time, as it reads its own: name, help,
 * type and samples. prom-client types `registerMetric` for its own classes only, hence the cast.
 */
function tallied(name: string, type: 'counter' | 'histogram', help: string, values: () => Sample[]): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => undefined,
  };
  return metric as unknown as Metric;
}
