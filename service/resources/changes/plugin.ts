import type { FastifyInstance } from 'fastify';
import { registerChanges } from './changes.ts';
import { ChangeHub, defaultStreamLimits, type StreamLimits } from './hub.ts';

export interface ChangesOptions {
  limits?: Partial<StreamLimits> | undefined;
}

/**
 * The change stream (`/users/UID/changes`), encapsulated: one hub per service, fed by the change
 * table, its streams ended before the server stops (else each would hold the stop to its drain limit).
 */
export function changesPlugin(app: FastifyInstance, options: ChangesOptions, done: (err?: Error) => void): void {
  const svc = app.svc;
  const hub = new ChangeHub(svc, { ...defaultStreamLimits(svc.db.dialect), ...options.limits });
  registerChanges(app, svc, hub);
  // A write answered by this node is read from the table at once, not at the next poll.
  app.server.on('request', (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') res.once('finish', () => hub.wake());
  });
  app.addHook('preClose', (finish) => {
    hub.close().then(
      () => finish(),
      () => finish(),
    );
  });
  done();
}
