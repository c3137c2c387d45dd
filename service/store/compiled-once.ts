import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';

/**
 * A query of a fixed shape, built and compiled by Kysely once per database (kept in its
 * `caches.compiled`) and then run with each call's parameter values: what every signed request
 * reads (its access token, its subscriber), where building and compiling the query cost more than
 * running it. `build` must give the query with placeholder values in the order the call passes
 * them, and its SQL text must not depend on them (comparisons with `=`, never an IN-list).
 */
export function compiledOnce<Row>(
  build: (k: Kysely<Database>) => Compilable<Row>,
): (db: Db, ...parameters: unknown[]) => Promise<Row[]> {
  const run = async (db: Db, ...parameters: unknown[]): Promise<Row[]> => {
    let query = db.caches.compiled.get(run) as CompiledQuery<Row> | undefined;
    if (!query) {
      query = build(db.kysely).compile();
      if (query.parameters.length !== parameters.length)
        throw new Error(`compiledOnce: ${query.parameters.length} placeholders, ${parameters.length} values`);
      db.caches.compiled.set(run, query);
    }
    // PostgreSQL: a named prepared statement (parsed and planned once per connection).
    if (db.prepared?.kysely === db.kysely) return db.prepared.run<Row>(query.sql, parameters);
    const result = await db.kysely.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
  return run;
}
