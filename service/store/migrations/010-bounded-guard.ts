import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/** Partitions of PostgreSQL's nonce ring (store/guard/pg-nonce-ring.ts's NONCE_SLOTS). */
const NONCE_SLOTS = 20;

/**
 * Per-request state that stays bounded (issue 19). The `nonces` table (a row per request, purged
 * row by row) goes. SQLite keeps nonces in memory and saves them at a clean close as packed hash
 * sets (`guard_nonce_buckets`), with the seconds accepted ahead of the clock (`guard_future_seconds`).
 * PostgreSQL shares 128-bit nonce digests in `guard_nonces`, a ring of list partitions truncated a
 * minute at a time (`guard_nonce_slots` records what each was cleared for), and per-second counts
 * as one row per consumer (`quota_seconds`); `quota_counters` keeps day counts only.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema.dropTable('nonces').execute();
  await db.deleteFrom('quota_counters').where('window', 'like', 's:%').execute();
  if (dialect === 'sqlite') {
    await db.schema
      .createTable('guard_nonce_buckets')
      .addColumn('bucket', 'integer', (c) => c.primaryKey())
      .addColumn('hashes', 'blob', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('guard_future_seconds')
      .addColumn('second', 'integer', (c) => c.primaryKey())
      .execute();
    return;
  }
  await sql`CREATE TABLE guard_nonces (slot smallint NOT NULL, h uuid NOT NULL, PRIMARY KEY (slot, h)) PARTITION BY LIST (slot)`.execute(
    db,
  );
  for (let slot = 0; slot < NONCE_SLOTS; slot++) {
    await sql`CREATE TABLE ${sql.table(`guard_nonces_${slot}`)} PARTITION OF guard_nonces FOR VALUES IN (${sql.lit(slot)})`.execute(
      db,
    );
  }
  await db.schema
    .createTable('guard_nonce_slots')
    .addColumn('slot', 'smallint', (c) => c.primaryKey())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('guard_nonce_slots')
    .values(Array.from({ length: NONCE_SLOTS }, (_, slot) => ({ slot, bucket: -1 })))
    .execute();
  await db.schema
    .createTable('quota_seconds')
    .addColumn('consumer_key', 'text', (c) => c.primaryKey())
    .addColumn('second', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}
