import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { sendStatus } from '../../http/status.ts';
import { storeNotReady } from '../../store/health.ts';

/**
 * GET /healthz: the process answers (nothing else is asked, so a busy store never fails it).
 * GET /readyz: the store answers, its migrations are this service's, and title search's word
 * table is built; else 503 with the reason. Unsigned and never charged to a quota.
 */
export function registerHealth(app: FastifyInstance, svc: ServiceContext): void {
  app.get('/healthz', (req, reply) => sendStatus(req, reply, 200, 'OK'));
  app.get('/readyz', async (req, reply) => {
    const why = await notReady(svc);
    return why === undefined ? sendStatus(req, reply, 200, 'Ready') : sendStatus(req, reply, 503, `Not ready: ${why}`);
  });
}

/** Why the service cannot answer requests well yet, or undefined. */
async function notReady(svc: ServiceContext): Promise<string | undefined> {
  const store = await storeNotReady(svc.db);
  if (store !== undefined) return store;
  const words = svc.search.wordTable();
  if (words.built) return undefined;
  // A build that failed (the store was down as the service started) is tried again now.
  if (!words.building) void svc.search.prepare();
  return 'the title search word table is being built';
}
