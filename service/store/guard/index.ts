import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';
import type { Database } from '../schema.ts';
import { openMemoryGuard } from './memory.ts';
import { openPostgresGuard } from './postgres.ts';
import type { RequestGuard } from './types.ts';

export type { Admission, Charge, NonceClaim, RequestGuard } from './types.ts';

/** The database's request guard: in memory on SQLite, one statement per request on PostgreSQL. */
export async function openGuard(kysely: Kysely<Database>, dialect: DialectName): Promise<RequestGuard> {
  return dialect === 'sqlite' ? openMemoryGuard(kysely) : openPostgresGuard(kysely);
}
