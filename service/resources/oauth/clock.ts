import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { represent } from '../../http/represent.ts';
import { resource } from '../../http/route.ts';
import { textEl } from '../../xml/node.ts';

/** `/oauth/clock/time`: the service's clock, so clients can correct their timestamps. */
export function registerClock(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/oauth/clock/time', {
    GET: { auth: 'key', handler: (req, reply) => represent(req, reply, textEl('time', svc.now())) },
  });
}
