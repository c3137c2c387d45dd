import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { registerBodyParsers } from './body.ts';
import { registerEtagAndGzip } from './etag.ts';
import { registerUrlLimit } from './limits.ts';
import { registerObservation } from './observe.ts';
import { registerRequestFields } from './request-fields.ts';
import { registerStatusHandlers } from './status.ts';

export interface RulesOptions {
  svc: ServiceContext;
  /** Whether each request is logged (and its id sent back); the metrics are `svc.metrics`. */
  logRequests: boolean;
}

/**
 * Every cross-cutting rule, once, for every route: request fields, what an operator sees of a
 * request (metrics, log line, request id), body parsers, status bodies, the URL limit, ETag and
 * gzip, and the shared `svc` decoration. It skips Fastify's encapsulation
 * (`skip-override`, as fastify-plugin marks a plugin), so its hooks and parsers land on the root
 * and reach every resource plugin registered after it.
 */
export const serviceRules = Object.assign(
  function serviceRules(app: FastifyInstance, options: RulesOptions, done: (err?: Error) => void): void {
    app.decorate('svc', options.svc);
    registerRequestFields(app);
    registerObservation(app, { metrics: options.svc.metrics, logRequests: options.logRequests });
    registerBodyParsers(app);
    registerStatusHandlers(app);
    registerUrlLimit(app);
    registerEtagAndGzip(app, options.svc.gzipped);
    done();
  },
  { [Symbol.for('skip-override')]: true },
) satisfies FastifyPluginCallback<RulesOptions>;
