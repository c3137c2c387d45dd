import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';
import { kyselyRunner, type StatementRunner } from '../pg-prepared.ts';
import type { Database } from '../schema.ts';
import { openMemoryGuard } from './memory.ts';
import { openPostgresGuard } from './postgres.ts';
import { passiveGuard } from './passive.ts';
import type { RequestGuard } from './types.ts';

export type { Admission, Charge, NonceClaim, RequestGuard } from './types.ts';
export { passiveGuard };

/**
 * The database's request guard: in memory on SQLite, batched statements on PostgreSQL (run through
 * `run`, the pool's prepared statements, or Kysely when not given).
 */
export async function openGuard(
  kysely: Kysely<Database>,
  dialect: DialectName,
  run?: StatementRunner,
): Promise<RequestGuard> {
  return dialect === 'sqlite' ? openMemoryGuard(kysely) : openPostgresGuard(kysely, run ?? kyselyRunner(kysely));
}
