import type { FastifyInstance } from 'fastify';
import { registerHealth } from './health.ts';
import { checkMetricsAccess } from './metrics-access.ts';

export interface OperatorPluginOptions {
  /** Opens /metrics to callers beyond loopback that send it as a bearer token. */
  metricsToken?: string | undefined;
}

/**
 * What an operator's tools read, encapsulated: health and readiness for a load balancer or an
 * orchestrator, and the Prometheus metrics (when the service keeps them). None is signed or charged.
 */
export function operatorPlugin(
  app: FastifyInstance,
  options: OperatorPluginOptions,
  done: (err?: Error) => void,
): void {
  const svc = app.svc;
  registerHealth(app, svc);
  const metrics = svc.metrics;
  if (metrics) {
    app.get('/metrics', async (req, reply) => {
      checkMetricsAccess(req, options.metricsToken);
      return reply.type(metrics.contentType).send(await metrics.text());
    });
  }
  done();
}
