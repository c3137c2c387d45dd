import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceContext } from './context.ts';
import { BODY_LIMIT, registerBodyParsers } from './http/body.ts';
import { registerEtagAndGzip } from './http/etag.ts';
import { registerUrlLimit } from './http/limits.ts';
import { clientErrorHandler, DEFAULT_LIMITS, limitConnectionsPerIp, timeoutOptions, type ConnectionLimits } from './http/connections.ts';
import { frameworkErrors, registerStatusHandlers } from './http/status.ts';
import { registerCatalog } from './resources/catalog.ts';
import { registerCategories } from './resources/categories.ts';
import { registerImages } from './resources/images.ts';
import { registerClock } from './resources/misc.ts';
import { registerPeople } from './resources/people.ts';
import { registerTitleIndex } from './resources/title-index.ts';
import { registerTitles } from './resources/titles.ts';
import { registerWebPages } from './resources/web-pages.ts';
import { registerOAuthTokens } from './resources/oauth-tokens.ts';
import { registerSignIn } from './resources/sign-in.ts';
import { registerUsers } from './resources/users.ts';
import { registerQueues } from './resources/queues.ts';
import { withoutBulkReplace } from './resources/queue-replace.ts';
import { registerRatings } from './resources/ratings.ts';
import { registerRecommendations } from './resources/recommendations.ts';
import { registerTitleStates } from './resources/title-states.ts';
import { registerFeeds } from './resources/feeds.ts';
import { registerRentalHistory } from './resources/rental-history.ts';
import { registerAtHome } from './resources/at-home.ts';
import { registerLists } from './resources/lists.ts';
import { registerTitleMatch } from './resources/title-match.ts';
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
}

/** Builds the HTTP app: cross-cutting rules first, then one registration per resource family. */
export function buildServer(options: ServerOptions): FastifyInstance {
  const svc: ServiceContext = {
    db: options.db,
    search: searchFor(options.db),
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    now: options.now ?? (() => Math.floor(Date.now() / 1000)),
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
  registerBodyParsers(app);
  registerStatusHandlers(app);
  registerUrlLimit(app);
  registerEtagAndGzip(app);

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
  if (options.bulkReplace === false) withoutBulkReplace.add(svc);
  registerRatings(app, svc);
  registerRecommendations(app, svc);
  registerTitleStates(app, svc);
  registerFeeds(app, svc);
  registerRentalHistory(app, svc);
  registerAtHome(app, svc);
  registerLists(app, svc);
  registerTitleMatch(app, svc);
  return app;
}
