import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiVersion, Message } from '../../shared/protocol/index.ts';
import type { AuthContext, AuthLevel } from '../oauth/verify.ts';
import { ApiError } from './errors.ts';
import { authenticate } from './auth.ts';
import { authenticateFeed } from './feed-auth.ts';
import { chargeQuota } from './quota.ts';
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
}

export interface Operation {
  auth: AuthLevel | 'none';
  /** A feed: readable unsigned with the consumer key and the user's `feed_token` instead of OAuth. */
  feed?: boolean;
  handler: (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => Promise<unknown> | unknown;
}

const TRANSPORT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const OVERRIDABLE = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Registers one resource URL. Every transport method reaches the same route so that a method
 * override (header `X-HTTP-Method-Override` or parameter `method`) is honoured before dispatch,
 * and a verb the resource lacks is 405 rather than 404. Then OAuth, quota, then the handler.
 */
export function resource(app: FastifyInstance, svc: ServiceContext, url: string, operations: Partial<Record<Verb, Operation>>): void {
  const allow = Object.keys(operations).join(', ');
  app.route({
    method: TRANSPORT_METHODS.filter((m) => m !== 'HEAD') as unknown as string[],
    url,
    handler: async (req, reply) => {
      const method = effectiveMethod(req);
      const operation = operations[method as Verb];
      if (!operation) {
        reply.header('allow', allow);
        throw new ApiError(405, Message.methodNotAllowed);
      }
      const auth =
        operation.auth === 'none'
          ? undefined
          : operation.feed && params(req).has('feed_token')
            ? await authenticateFeed(svc, req)
            : await authenticate(svc, req, operation.auth);
      if (auth) await chargeQuota(svc, auth.consumer, svc.now());
      const ctx: RequestContext = { params: params(req), version: versionOf(req), auth, method: method as Verb };
      return operation.handler(req, reply, ctx);
    },
  });
}

/** The requested method (override applied), which must be one a client may override to. */
function effectiveMethod(req: FastifyRequest): string {
  const method = requestedMethod(req);
  const transport = req.method === 'HEAD' ? 'GET' : req.method;
  if (method !== transport && !OVERRIDABLE.has(method)) throw ApiError.invalid('method');
  return method;
}
