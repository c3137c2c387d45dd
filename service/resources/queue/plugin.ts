import type { FastifyInstance } from 'fastify';
import { registerQueues } from './queues.ts';

/** A subscriber's queues (disc and instant: read, add, move, replace, remove), encapsulated. */
export function queuePlugin(app: FastifyInstance, _options: object, done: (err?: Error) => void): void {
  registerQueues(app, app.svc);
  done();
}
