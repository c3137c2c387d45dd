import type { Kysely } from 'kysely';
import { savedQuotaCount } from '../quota.ts';
import type { Database } from '../schema.ts';
import type { RequestGuard } from './types.ts';

/**
 * The guard of a process that answers no requests (an operator command): it reads saved day
 * counts and writes nothing. A SQLite file's guard belongs to the process that serves it, which
 * may be running beside the command (memory-saved.ts: its nonces live in its memory, and
 * `guard_running` records whether it stopped cleanly). A command that opened the serving guard
 * took that record over and closed it as clean under the running service, so a crash of the
 * service after any operator command let every request it had accepted since be replayed.
 */
export function passiveGuard(kysely: Kysely<Database>): RequestGuard {
  const refuse = () =>
    Promise.reject(new Error('this process admits no requests (it opened the store without a request guard)'));
  return {
    admit: refuse,
    charge: refuse,
    count: (consumerKey, window) =>
      window.startsWith('d:') ? savedQuotaCount({ kysely }, consumerKey, window) : Promise.resolve(0),
    flush: () => Promise.resolve(),
    held: () => ({ nonces: 0, bytes: 0 }),
    close: () => Promise.resolve(),
  };
}
