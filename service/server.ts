import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.ts';
import { BODY_LIMIT } from './http/body.ts';
import { GZIP_CACHE_BYTES } from './http/etag.ts';
import { GzipCache } from './http/gzip-cache.ts';
import { LoginThrottle } from './oauth/login-throttle.ts';
import { storeVerifier } from './http/auth.ts';
import { KeptPages, RenderedCache } from './http/rendered-cache.ts';
import { REPRESENTATION_CACHE_BYTES } from './http/represent-cache.ts';
import { QUEUE_PAGES_KEPT } from './resources/queue/pages.ts';
import { answerKeptGets } from './http/kept-get.ts';
import {
  clientErrorHandler,
  DEFAULT_LIMITS,
  limitConnectionsPerIp,
  boundTheDrain,
  timeoutOptions,
  type ConnectionLimits,
} from './http/connections.ts';
import { frameworkErrors } from './http/status.ts';
import { serviceRules } from './http/rules.ts';
import { catalogPlugin } from './resources/catalog/plugin.ts';
import { oauthPlugin } from './resources/oauth/plugin.ts';
import { queuePlugin } from './resources/queue/plugin.ts';
import { changesPlugin } from './resources/changes/plugin.ts';
import type { StreamLimits } from './resources/changes/hub.ts';
import { subscriberPlugin } from './resources/subscriber/plugin.ts';
import { operatorPlugin } from './resources/operator/plugin.ts';
import { ServiceMetrics } from './http/metrics.ts';
import { requestIdOf } from './http/observe.ts';
import type { LogLevel } from './config.ts';
import type { Db } from './store/db.ts';
import type { DemoAccount } from './oauth/sign-in-html.ts';
import { searchFor } from './store/search/index.ts';

export interface ServerOptions {
  db: Db;
  /** Public base URL (scheme, host, port, optional path prefix) that ids and links are built on. */
  baseUrl: string;
  now?: () => number;
  /** Fastify's JSON log (pino): `info` writes one line per request; `silent` (the default) nothing. */
  logLevel?: LogLevel;
  /**
   * Prometheus metrics at /metrics (on unless false): `process` adds the process's own (one service
   * per process), `token` opens them beyond loopback.
   */
  metrics?: false | { process?: boolean; token?: string | undefined } | undefined;
  /** Trust X-Forwarded-* from a reverse proxy (scheme and host for OAuth base strings). */
  trustProxy?: boolean;
  /** Timeouts and the per-address connection bound (tests shorten them). */
  limits?: Partial<ConnectionLimits>;
  /** Shown on the sign-in page under the form (a service started with `--demo`). */
  demoAccount?: DemoAccount | undefined;
  /** False: PUT /users/UID/queues/<kind> answers 405, as a service without bulk replace would (tests of clients' fallback). */
  bulkReplace?: boolean;
  /** False: every request goes through Fastify's routes, none through the kept-GET path (http/kept-get.ts; tests compare the two). */
  keptGets?: boolean;
  /** Bounds of the change streams (resources/changes/hub.ts; tests lower them). */
  changeStreams?: Partial<StreamLimits>;
}

/** Builds the HTTP app: the cross-cutting rules at the root, then one encapsulated plugin per concern. */
export function buildServer(options: ServerOptions): FastifyInstance {
  const search = searchFor(options.db);
  const metricsOptions = options.metrics === false ? undefined : (options.metrics ?? {});
  const svc: ServiceContext = {
    db: options.db,
    search,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    now: options.now ?? (() => Math.floor(Date.now() / 1000)),
    verifier: storeVerifier(options.db),
    bulkReplace: options.bulkReplace !== false,
    representations: new RenderedCache(REPRESENTATION_CACHE_BYTES),
    queuePages: new KeptPages(QUEUE_PAGES_KEPT),
    gzipped: new GzipCache(GZIP_CACHE_BYTES),
    signInThrottle: new LoginThrottle(),
    metrics: metricsOptions && new ServiceMetrics(options.db, search, metricsOptions),
  };
  const logLevel = options.logLevel ?? 'silent';
  // Below `info` the log has no request lines: the kept-GET path may answer (it logs nothing).
  const logRequests = logLevel === 'info' || logLevel === 'debug' || logLevel === 'trace';
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const app = Fastify({
    ...timeoutOptions(limits),
    clientErrorHandler,
    logger: logLevel === 'silent' ? false : { level: logLevel },
    // http/observe.ts writes one line per request, not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // An id worth sending back only where a log line carries it; else Fastify's counter, which costs nothing.
    ...(logRequests ? { genReqId: requestIdOf } : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
  });
  limitConnectionsPerIp(app.server, limits.perIp);
  boundTheDrain(app, limits.drainMs);
  // The rules reach every route (they skip encapsulation); each concern below is its own plugin.
  app.register(serviceRules, { svc, logRequests });
  app.register(catalogPlugin);
  app.register(oauthPlugin, { demoAccount: options.demoAccount });
  app.register(subscriberPlugin);
  app.register(queuePlugin);
  app.register(operatorPlugin, { metricsToken: metricsOptions?.token });
  app.addHook('onClose', (_app, done) => {
    svc.metrics?.close();
    done();
  });
  app.register(changesPlugin, { limits: options.changeStreams });

  // Title search's word table is built as the service starts listening, not by its first search.
  app.addHook('onListen', () => void svc.search.prepare());
  if (options.keptGets !== false && !logRequests && !options.trustProxy) answerKeptGets(app, svc);
  return app;
}
