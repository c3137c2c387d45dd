import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiVersion, Message } from '../../shared/protocol/index.ts';
import { verifyRequest, type AuthContext, type AuthLevel, type TokenSecretLookup } from '../oauth/verify.ts';
import { findLiveRequestToken } from '../store/oauth/request-tokens.ts';
import { getUser } from '../store/subscriber/users.ts';
import type { User } from '../model/user.ts';
import { ApiError } from '../model/api-error.ts';
import { authenticate, signedRequestOf } from './auth.ts';
import { authenticateFeed } from './feed-auth.ts';
import { chargeQuota } from './quota.ts';
import { handedOverAuth } from './kept-get-handover.ts';
import type { KeptLevel } from './rendered-cache.ts';
import { params, requestedMethod, versionOf, type Params } from './params.ts';
import type { ServiceContext } from '../context.ts';

export type Verb = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler knows about its request beyond Fastify's view of it. */
export interface RequestContext {
  params: Params;
  version: ApiVersion;
  /** Absent only for public (`none`) operations. */
  auth: AuthContext | undefined;
  /** The method the client meant: the transport method unless overridden. */
  method: Verb;
  /** The subscriber the access token (or feed token) stands for; set when the operation has `user: true`. */
  user: User | undefined;
  /**
   * The OAuth level a repeat of this request must pass to be answered from its kept representation
   * without the route (kept-get.ts): the operation's own for a plain signed GET; undefined otherwise.
   */
  keptLevel: KeptLevel | undefined;
}

/** `request-token`: signed with the consumer and a live request token (the access-token exchange). */
/**
 * A handler a route calls with the service first and, after the request, what the route adds
 * (a queue view, a rental list, a title): declared once for every room's shared handlers.
 */
export type ServiceHandler<Extra extends unknown[] = []> = (
  svc: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: RequestContext,
  ...extra: Extra
) => Promise<FastifyReply>;

export type RouteAuth = AuthLevel | 'none' | 'request-token';

export interface Operation {
  auth: RouteAuth;
  /**
   * A subscriber resource: the token's user is resolved once into `ctx.user`, and a `:uid` in the
   * path must be that user (403 otherwise); no access token is 400.
   */
  user?: boolean;
  /** A feed: readable unsigned with the consumer key and the user's `feed_token` instead of OAuth. */
  feed?: boolean;
  handler: (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => unknown;
}

const TRANSPORT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const OVERRIDABLE = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Registers one resource URL. Every transport method reaches the same route so that a method
 * override (header `X-HTTP-Method-Override` or parameter `method`) is honoured before dispatch,
 * and a verb the resource lacks is 405 rather than 404. Then OAuth, quota, then the handler.
 */
export function resource(
  app: FastifyInstance,
  svc: ServiceContext,
  url: string,
  operations: Partial<Record<Verb, Operation>>,
): void {
  const allow = Object.keys(operations).join(', ');
  app.route({
    method: TRANSPORT_METHODS.filter((m) => m !== 'HEAD'),
    url,
    handler: async (req, reply) => {
      const method = effectiveMethod(req);
      const operation = operations[method as Verb];
      if (!operation) {
        reply.header('allow', allow);
        throw new ApiError(405, Message.methodNotAllowed);
      }
      const auth = await authOf(svc, req, operation);
      if (auth) req.consumerKey = auth.consumer.key;
      // Every authenticated request is charged, the token endpoints included.
      if (auth) await chargeQuota(svc, auth, svc.now());
      const user = operation.user ? await subscriberOf(svc, req, auth) : undefined;
      const ctx: RequestContext = {
        params: params(req),
        version: versionOf(req),
        auth,
        method: method as Verb,
        user,
        keptLevel: keptLevelOf(req, operation),
      };
      return operation.handler(req, reply, ctx);
    },
  });
}

/** A GET sent as a GET, signed, reading no subscriber and no feed: what kept-get.ts may answer again itself. */
function keptLevelOf(req: FastifyRequest, operation: Operation): KeptLevel | undefined {
  if (req.method !== 'GET' || operation.user || operation.feed) return undefined;
  return operation.auth === 'signed' || operation.auth === 'protected' ? operation.auth : undefined;
}

function authOf(
  svc: ServiceContext,
  req: FastifyRequest,
  operation: Operation,
): Promise<AuthContext | undefined> | AuthContext | undefined {
  if (operation.auth === 'none') return undefined;
  // Verified, nonce claimed and charged by the kept-GET path, which hands the request over to be answered here.
  const handed = handedOverAuth(req.raw);
  if (handed) return handed;
  if (operation.feed && params(req).has('feed_token')) return authenticateFeed(svc, req);
  if (operation.auth === 'request-token') {
    return verifyRequest(svc.verifier, signedRequestOf(req), 'protected', {
      now: svc.now,
      tokenSecretLookup: requestTokenLookup(svc),
    });
  }
  return authenticate(svc, req, operation.auth);
}

/** Request tokens that are live; userId is "" until the subscriber approved it. */
function requestTokenLookup(svc: ServiceContext): TokenSecretLookup {
  return async (token) => {
    const pending = await findLiveRequestToken(svc.db, token, svc.now());
    return pending
      ? { secret: pending.secret, consumerKey: pending.consumer_key, userId: pending.user_id ?? '' }
      : null;
  };
}

/** The subscriber behind the request's token, who must be the `:uid` of the path when it has one. */
export async function subscriberOf(
  svc: ServiceContext,
  req: FastifyRequest,
  auth: AuthContext | undefined,
): Promise<User> {
  const tokenUser = auth?.token?.userId;
  if (!tokenUser) throw new ApiError(400, Message.missingAccessToken);
  const uid = (req.params as { uid?: string }).uid;
  if (uid !== undefined && uid !== tokenUser) throw new ApiError(403, Message.userMismatch);
  // Read with the access token when it was one (one read for both); else (a feed token) now.
  const user = auth?.token?.user ?? (await getUser(svc.db, tokenUser));
  if (!user) throw ApiError.unauthorized(Message.invalidToken);
  return user;
}

/** The subscriber the route resolved for an operation declared with `user: true`. */
export function subscriber(ctx: RequestContext): User {
  if (!ctx.user) throw new Error('this operation reads the subscriber but is not declared with user: true');
  return ctx.user;
}

/**
 * The requested method (override applied), which must be one a client may override to. Only a
 * POST may be overridden: the `X-HTTP-Method-Override` header is outside the OAuth signature, and
 * a GET never writes, so a GET naming another verb is refused rather than run as a read.
 */
function effectiveMethod(req: FastifyRequest): string {
  const method = requestedMethod(req);
  const transport = req.method === 'HEAD' ? 'GET' : req.method;
  if (method === transport) return method;
  if (!OVERRIDABLE.has(method)) throw ApiError.invalid('method');
  if (transport !== 'POST') throw new ApiError(400, GET_OVERRIDE);
  return method;
}

const GET_OVERRIDE = 'method is invalid: only a POST may name another method; send the request as a POST';
