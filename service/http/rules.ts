import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { registerBodyParsers } from './body.ts';
import { registerEtagAndGzip } from './etag.ts';
import { registerUrlLimit } from './limits.ts';
import { registerRequestFields } from './request-fields.ts';
import { registerStatusHandlers } from './status.ts';

export interface RulesOptions {
  svc: ServiceContext;
}

/**
 * Every cross-cutting rule, once, for every route: request fields, body parsers, status bodies,
 * the URL limit, ETag and gzip, and the shared `svc` decoration. It skips Fastify's encapsulation
 * (`skip-override`, as fastify-plugin marks a plugin), so its hooks and parsers land on the root
 * and reach every resource plugin registered after it.
 */
export const serviceRules = Object.assign(
  function serviceRules(app: FastifyInstance, options: RulesOptions, done: (err?: Error) => void): void {
    app.decorate('svc', options.svc);
    registerRequestFields(app);
    registerBodyParsers(app);
    registerStatusHandlers(app);
    registerUrlLimit(app);
    registerEtagAndGzip(app, options.svc.gzipped);
    done();
  },
  { [Symbol.for('skip-override')]: true },
) satisfies FastifyPluginCallback<RulesOptions>;
