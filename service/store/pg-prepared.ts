import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { QueryTimings } from './timings.ts';

/** Runs one SQL text with its values and answers its rows. */
export type StatementRunner = <Row>(text: string, values: readonly unknown[]) => Promise<Row[]>;

/** What the driver's pool offers: a query by config (named: parsed and planned once per connection). */
export interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Named prepared statements on a PostgreSQL pool: each connection parses and plans a text once and
 * then only binds values (Kysely sends every query unnamed, parsed and planned each time). The name
 * is derived from the text, so one name never stands for two texts.
 */
export function preparedRunner(pool: PgPool, timings?: QueryTimings): StatementRunner {
  const names = new Map<string, string>();
  return async <Row>(text: string, values: readonly unknown[]) => {
    let name = names.get(text);
    if (!name) {
      name = `m_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    const started = timings?.listened ? performance.now() : undefined;
    const { rows } = await pool.query({ name, text, values: [...values] });
    if (started !== undefined) timings!.record((performance.now() - started) / 1000);
    return rows as Row[];
  };
}

/** The same through Kysely (a transaction, a test's counting plugin, SQLite). */
export function kyselyRunner(kysely: Kysely<Database>): StatementRunner {
  return async <Row>(text: string, values: readonly unknown[]) =>
    (await kysely.executeQuery<Row>(CompiledQuery.raw(text, [...values]))).rows;
}
