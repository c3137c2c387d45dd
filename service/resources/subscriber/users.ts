import type { FastifyInstance } from 'fastify';
import { parseExpand, rel } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber } from '../../http/route.ts';
import { el } from '../../xml/node.ts';
import { link } from '../../xml/links.ts';
import { userElement, userUrl } from '../../xml/user.ts';

/** `/users/current` (a link to the signed-in subscriber) and `/users/<uid>`. */
export function registerUsers(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/current', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        // Extension: expand=user inlines the user behind the link.
        const inline =
          parseExpand(ctx.params.get('expand'), '1.5').has('user') && userElement(svc.baseUrl, user, ctx.version);
        return represent(
          req,
          reply,
          el('resource', null, link(userUrl(svc.baseUrl, user.id), rel.userCurrent, 'current user', inline)),
        );
      },
    },
  });
  resource(app, svc, '/users/:uid', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => represent(req, reply, userElement(svc.baseUrl, subscriber(ctx), ctx.version)),
    },
  });
}
