import { sql } from 'kysely';
import type { Db } from './db.ts';
import { migrations } from './migrations/index.ts';

/** A store that takes longer than this to answer one small read is not ready (a probe must not hang). */
export const STORE_PROBE_MS = 2000;

/**
 * Whether the store answers and has run exactly this service's migrations: one read of Kysely's
 * migration table. Undefined when it is ready; otherwise why not, in words for an operator.
 */
export async function storeNotReady(db: Db): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), STORE_PROBE_MS);
  });
  try {
    const read = sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db.kysely);
    read.catch(() => undefined); // a read that fails after the deadline has no one waiting for it
    const answer = await Promise.race([read, late]);
    if (answer === 'late') return `the ${db.dialect} store did not answer within ${STORE_PROBE_MS} ms`;
    const known = Object.keys(migrations);
    const done = new Set(answer.rows.map((r) => r.name));
    const missing = known.filter((name) => !done.has(name));
    if (missing.length > 0) return `migrations not run: ${missing.join(', ')}`;
    if (done.size > known.length)
      return 'the store has migrations this service does not know (a newer version ran on it)';
    return undefined;
  } catch (error) {
    return `the ${db.dialect} store does not answer: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}
