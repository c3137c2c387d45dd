import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Message, parseExpand, rel } from '../../shared/protocol/index.ts';
import type { ServiceContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { represent } from '../http/represent.ts';
import { resource, type RequestContext } from '../http/route.ts';
import { getUser, type User } from '../store/users.ts';
import { el } from '../xml/node.ts';
import { link } from '../xml/links.ts';
import { userElement, userUrl } from '../xml/user.ts';

/** `/users/current` (a link to the signed-in subscriber) and `/users/<uid>`. */
export function registerUsers(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/current', {
    GET: {
      auth: 'protected',
      handler: async (req, reply, ctx) => {
        const user = await userOf(svc, req, ctx);
        // Extension: expand=user inlines the user behind the link.
        const inline = parseExpand(ctx.params.get('expand'), '1.5').has('user') && userElement(svc.baseUrl, user, ctx.version);
        return represent(req, reply, el('resource', null, link(userUrl(svc.baseUrl, user.id), rel.userCurrent, 'current user', inline)));
      },
    },
  });
  resource(app, svc, '/users/:uid', {
    GET: {
      auth: 'protected',
      handler: async (req, reply, ctx) => represent(req, reply, userElement(svc.baseUrl, await userOf(svc, req, ctx), ctx.version)),
    },
  });
}

/**
 * The subscriber a protected request acts for: the token's own user. A `:uid` in the path must
 * be that user (403 otherwise); `current` names whoever the token belongs to.
 */
export async function userOf(svc: ServiceContext, req: FastifyRequest, ctx: RequestContext): Promise<User> {
  const tokenUser = ctx.auth?.token?.userId;
  if (!tokenUser) throw new ApiError(400, Message.missingAccessToken);
  const uid = (req.params as { uid?: string }).uid;
  if (uid !== undefined && uid !== tokenUser) throw new ApiError(403, Message.userMismatch);
  const user = await getUser(svc.db, tokenUser);
  if (!user) throw ApiError.unauthorized(Message.invalidToken);
  return user;
}
