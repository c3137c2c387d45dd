import type { KeptPages, RenderedCache } from './http/rendered-cache.ts';
import type { GzipCache } from './http/gzip-cache.ts';
import type { ServiceMetrics } from './http/metrics.ts';
import type { LoginThrottle } from './oauth/login-throttle.ts';
import type { VerifierStore } from './oauth/verify.ts';
import type { Db } from './store/db.ts';
import type { Search } from './store/search/index.ts';

/**
 * What every resource needs from the running service, and all it keeps between requests (the
 * store keeps its own per database, `db.caches`; the HTTP server counts connections per address,
 * http/connections.ts). Built once by `buildServer`.
 */
export interface ServiceContext {
  db: Db;
  search: Search;
  /** Public base URL, no trailing slash: ids and links are built from it. */
  baseUrl: string;
  /** Unix seconds; injectable so tests can move the clock. */
  now: () => number;
  /** How OAuth verification reads consumers and tokens and claims nonces (http/auth.ts). */
  verifier: VerifierStore;
  /** False: PUT /users/UID/queues/<kind> answers 405, as a service without bulk replace would (resources/queue/replace.ts). */
  bulkReplace: boolean;
  /** Rendered catalog representations, by request, for the catalog generation (http/represent-cache.ts). */
  representations: RenderedCache;
  /** Rendered queue pages, by request, for the queue's version (resources/queue/pages.ts). */
  queuePages: KeptPages;
  /** Compressed bodies by content hash (http/etag.ts). */
  gzipped: GzipCache;
  /** Wrong passwords per account and per request token on the sign-in page (resources/oauth/sign-in.ts). */
  signInThrottle: LoginThrottle;
  /** The service's Prometheus metrics (http/metrics.ts); undefined when they are off. */
  metrics: ServiceMetrics | undefined;
}

/** The one decoration every plugin shares: `app.svc`, declared by http/rules.ts at the root. */
declare module 'fastify' {
  interface FastifyInstance {
    svc: ServiceContext;
  }
}
