import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../store/db.ts';
import type { Search } from '../store/search/index.ts';
import { RequestTally } from './request-tally.ts';

/** Why OAuth refused a request: the label of `marquee_oauth_refusals_total` (a fixed set, never the request's words). */
export type OAuthRefusal = 'consumer_key' | 'signature' | 'timestamp' | 'nonce' | 'token';
/** Which quota window refused a request. */
export type QuotaWindow = 'second' | 'day';

export interface MetricsOptions {
  /** Also the process's own metrics (CPU, memory, handles, GC, event-loop delay): one service per process, as `main.ts` runs it. */
  process?: boolean;
}

const QUERY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * The service's Prometheus metrics, in a registry of its own (never prom-client's global one: two
 * services in one process count apart). Labels are bounded by construction: a route's pattern,
 * never its URL; a method, a status code, a refusal's kind. Built by `buildServer`, read by
 * /metrics (resources/operator/), fed by the request hooks (observe.ts) and the kept-GET path.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: RequestTally;
  private readonly oauth: Counter<'reason'>;
  private readonly quota: Counter<'window'>;
  private readonly stopTimings: () => void;

  constructor(db: Db, search: Search, options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.requests = new RequestTally(this.registry);
    this.oauth = new Counter({
      name: 'marquee_oauth_refusals_total',
      help: 'Requests OAuth refused, by reason: consumer_key, signature, timestamp, nonce, token.',
      labelNames: ['reason'],
      registers,
    });
    this.quota = new Counter({
      name: 'marquee_quota_refusals_total',
      help: 'Requests refused by a consumer’s quota, by window (second or day).',
      labelNames: ['window'],
      registers,
    });
    const queries = new Histogram({
      name: 'marquee_store_query_duration_seconds',
      help: 'Time of each statement the store runs, by dialect (sqlite or postgres).',
      labelNames: ['dialect'],
      buckets: QUERY_BUCKETS,
      registers,
    }).labels(db.dialect);
    this.stopTimings = db.timings.listen((seconds) => queries.observe(seconds));
    storeGauges(this.registry, db, search);
    if (options.process) collectDefaultMetrics({ register: this.registry });
  }

  /** One answered request: counted under its route pattern ('unmatched' for none) and timed. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.record(route, method, status, seconds);
  }

  oauthRefused(reason: OAuthRefusal): void {
    this.oauth.inc({ reason });
  }

  quotaRefused(window: QuotaWindow): void {
    this.quota.inc({ window });
  }

  /** The Prometheus text of every metric now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Stops listening to the store (the app is closing; the store may outlive it). */
  close(): void {
    this.stopTimings();
  }
}

/** What the store and search hold, read when scraped: pools, the guard's nonces, the word table. */
function storeGauges(registry: Registry, db: Db, search: Search): void {
  const registers = [registry];
  new Gauge({
    name: 'marquee_store_pool_connections',
    help: 'PostgreSQL connections per pool (main: queries; guard: nonces and quota), by state: in_use or idle.',
    labelNames: ['pool', 'state'],
    registers,
    collect() {
      for (const p of db.pools()) {
        this.set({ pool: p.pool, state: 'in_use' }, p.total - p.idle);
        this.set({ pool: p.pool, state: 'idle' }, p.idle);
      }
    },
  });
  new Gauge({
    name: 'marquee_store_pool_waiting',
    help: 'Queries waiting for a PostgreSQL connection, per pool.',
    labelNames: ['pool'],
    registers,
    collect() {
      for (const p of db.pools()) this.set({ pool: p.pool }, p.waiting);
    },
  });
  new Gauge({
    name: 'marquee_guard_nonces',
    help: 'Nonces the request guard holds in this process’s memory (SQLite; on PostgreSQL they are in the database).',
    registers,
    collect() {
      this.set(db.guard.held().nonces);
    },
  });
  new Gauge({
    name: 'marquee_guard_nonce_bytes',
    help: 'Bytes those nonces take.',
    registers,
    collect() {
      this.set(db.guard.held().bytes);
    },
  });
  wordTableGauges(registers, search);
}

function wordTableGauges(registers: Registry[], search: Search): void {
  new Gauge({
    name: 'marquee_word_table_words',
    help: 'Distinct title words in the search word table (0 until it is built).',
    registers,
    collect() {
      this.set(search.wordTable().words);
    },
  });
  new Gauge({
    name: 'marquee_word_table_titles',
    help: 'Titles in the search word table.',
    registers,
    collect() {
      this.set(search.wordTable().titles);
    },
  });
  new Gauge({
    name: 'marquee_word_table_build_seconds',
    help: 'How long the last build of the word table took.',
    registers,
    collect() {
      this.set(search.wordTable().buildSeconds);
    },
  });
}
