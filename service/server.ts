import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.ts';
import { BODY_LIMIT, registerBodyParsers } from './http/body.ts';
import { GZIP_CACHE_BYTES, registerEtagAndGzip } from './http/etag.ts';
import { GzipCache } from './http/gzip-cache.ts';
import { LoginThrottle } from './oauth/login-throttle.ts';
import { storeVerifier } from './http/auth.ts';
import { KeptPages, RenderedCache } from './http/rendered-cache.ts';
import { REPRESENTATION_CACHE_BYTES } from './http/represent-cache.ts';
import { registerRequestFields } from './http/request-fields.ts';
import { QUEUE_PAGES_KEPT } from './resources/queue/pages.ts';
import { registerUrlLimit } from './http/limits.ts';
import { answerKeptGets } from './http/kept-get.ts';
import {
  clientErrorHandler,
  DEFAULT_LIMITS,
  limitConnectionsPerIp,
  boundTheDrain,
  timeoutOptions,
  type ConnectionLimits,
} from './http/connections.ts';
import { frameworkErrors, registerStatusHandlers } from './http/status.ts';
import { registerCatalog } from './resources/catalog/catalog.ts';
import { registerCategories } from './resources/catalog/categories.ts';
import { registerImages } from './resources/catalog/images.ts';
import { registerClock } from './resources/oauth/clock.ts';
import { registerPeople } from './resources/catalog/people.ts';
import { registerTitleIndex } from './resources/catalog/title-index.ts';
import { registerTitles } from './resources/catalog/titles.ts';
import { registerWebPages } from './resources/catalog/web-pages.ts';
import { registerOAuthTokens } from './resources/oauth/tokens.ts';
import { registerSignIn } from './resources/oauth/sign-in.ts';
import { registerUsers } from './resources/subscriber/users.ts';
import { registerQueues } from './resources/queue/queues.ts';
import { registerRatings } from './resources/subscriber/ratings.ts';
import { registerRecommendations } from './resources/subscriber/recommendations.ts';
import { registerTitleStates } from './resources/subscriber/title-states.ts';
import { registerFeeds } from './resources/subscriber/feeds.ts';
import { registerRentalHistory } from './resources/subscriber/rental-history.ts';
import { registerAtHome } from './resources/subscriber/at-home.ts';
import { registerLists } from './resources/subscriber/lists.ts';
import { registerTitleMatch } from './resources/catalog/title-match.ts';
import type { Db } from './store/db.ts';
import type { DemoAccount } from './oauth/sign-in-html.ts';
import { searchFor } from './store/search/index.ts';

export interface ServerOptions {
  db: Db;
  /** Public base URL (scheme, host, port, optional path prefix) that ids and links are built on. */
  baseUrl: string;
  now?: () => number;
  logger?: boolean;
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
}

/** Builds the HTTP app: cross-cutting rules first, then one registration per resource family. */
export function buildServer(options: ServerOptions): FastifyInstance {
  const svc: ServiceContext = {
    db: options.db,
    search: searchFor(options.db),
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    now: options.now ?? (() => Math.floor(Date.now() / 1000)),
    verifier: storeVerifier(options.db),
    bulkReplace: options.bulkReplace !== false,
    representations: new RenderedCache(REPRESENTATION_CACHE_BYTES),
    queuePages: new KeptPages(QUEUE_PAGES_KEPT),
    gzipped: new GzipCache(GZIP_CACHE_BYTES),
    signInThrottle: new LoginThrottle(),
  };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const app = Fastify({
    ...timeoutOptions(limits),
    clientErrorHandler,
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
  });
  limitConnectionsPerIp(app.server, limits.perIp);
  boundTheDrain(app, limits.drainMs);
  registerRequestFields(app);
  registerBodyParsers(app);
  registerStatusHandlers(app);
  registerUrlLimit(app);
  registerEtagAndGzip(app, svc.gzipped);

  // Title search's word table is built as the service starts listening, not by its first search.
  app.addHook('onListen', () => void svc.search.prepare());
  registerCatalog(app, svc);
  registerTitles(app, svc);
  registerTitleIndex(app, svc);
  registerPeople(app, svc);
  registerCategories(app, svc);
  registerClock(app, svc);
  registerImages(app, svc);
  registerWebPages(app, svc);
  registerOAuthTokens(app, svc);
  registerSignIn(app, svc, options.demoAccount);
  registerUsers(app, svc);
  registerQueues(app, svc);
  registerRatings(app, svc);
  registerRecommendations(app, svc);
  registerTitleStates(app, svc);
  registerFeeds(app, svc);
  registerRentalHistory(app, svc);
  registerAtHome(app, svc);
  registerLists(app, svc);
  registerTitleMatch(app, svc);
  if (options.keptGets !== false && !options.logger && !options.trustProxy) answerKeptGets(app, svc);
  return app;
}
