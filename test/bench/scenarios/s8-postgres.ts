import type { BenchRow, BenchScenario } from '../registry.ts';
import { measureTitleGet } from './s1-title-get.ts';
import { measureQueueGet } from './s2-queue-get.ts';
import { measureQueueMoves } from './s3-queue-moves.ts';

/** A row of S1–S3 measured on PostgreSQL: S8's, with PostgreSQL's targets (targets.ts), saying how durable the server was. */
function onPostgres(row: BenchRow): BenchRow {
  return {
    ...row,
    scenario: 'S8',
    figure: `${row.scenario} on PostgreSQL (durable: fsync and synchronous_commit on): ${row.figure}`,
  };
}

/**
 * S8: S1, S2 and S3 on an embedded PostgreSQL server with its default durability, as operators run
 * it (the demo catalog loaded into a fresh database, the service on it), measured by the same
 * functions as on SQLite, same load windows.
 */
export const scenario: BenchScenario = {
  id: 'S8',
  title: 'S1–S3 on embedded PostgreSQL, durable (its defaults: fsync, synchronous_commit, full_page_writes on)',
  async run(ctx) {
    const live = await ctx.service(0, 'postgres');
    const rows = [
      ...(await measureTitleGet(ctx, live)),
      ...(await measureQueueGet(ctx, live)),
      ...(await measureQueueMoves(ctx, live)),
    ];
    return rows.map(onPostgres);
  },
};
