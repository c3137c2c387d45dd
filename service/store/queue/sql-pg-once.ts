import type { StatementRunner } from '../pg-prepared.ts';
import type { QueueKind } from '../../model/queue.ts';
import type { QueueDiff, QueueStatements } from './types.ts';

/** Rows one statement writes at most: a respace (hundreds) goes through the transaction instead. */
const MAX_ROWS = 50;

/**
 * A queue change on PostgreSQL in ONE statement, no transaction: when this process keeps the
 * queue's entries at version v (entries-cache.ts), the change is planned on them and sent as
 * "bump v → v+1, and only if that bump happened, write these rows" (data-modifying CTEs gated on
 * the bump). The bump takes the queue's row lock and re-checks the version after any wait, so if
 * another writer got there first nothing is written and the caller runs the change again in a
 * transaction. Answers undefined whenever the change is not this simple: then the transaction runs.
 */
export async function changeInOneStatement<T>(
  run: StatementRunner,
  userId: string,
  kind: QueueKind,
  keptVersion: number,
  work: (statements: QueueStatements) => Promise<T>,
): Promise<{ value: T } | undefined> {
  let diff: QueueDiff | undefined;
  const statements: QueueStatements = {
    bump(expected) {
      // The transaction tells stale from not.
      if (expected !== undefined && expected !== keptVersion) return Promise.reject(new NotSimple());
      return Promise.resolve(keptVersion + 1);
    },
    create: () => Promise.reject(new NotSimple()),
    rows: () => Promise.reject(new NotSimple()),
    write(d) {
      diff = d;
      return Promise.resolve();
    },
  };
  let value: T;
  try {
    value = await work(statements);
  } catch {
    return undefined; // planned on kept entries only: any refusal is for the transaction to confirm
  }
  if (!diff || !simple(diff)) return undefined;
  const rows = await run<{ version: number }>(ONE_STATEMENT_SQL, [
    userId,
    kind,
    keptVersion,
    diff.removed,
    ...columns(diff.updated),
    ...columns(diff.inserted),
  ]);
  return rows.length === 1 ? { value } : undefined;
}

/** Made only when a change is refused here (an Error's stack trace costs a move a few µs). */
class NotSimple extends Error {}

/** Few rows, and no title both deleted and written (one statement's parts see one snapshot). */
function simple(diff: QueueDiff): boolean {
  const ids = [
    ...diff.removed,
    ...diff.updated.map((r) => r.entry.title_id),
    ...diff.inserted.map((r) => r.entry.title_id),
  ];
  return ids.length <= MAX_ROWS && new Set(ids).size === ids.length;
}

function columns(rows: QueueDiff['updated']): unknown[] {
  return [
    rows.map((r) => r.entry.title_id),
    rows.map((r) => r.key),
    rows.map((r) => r.entry.format),
    rows.map((r) => r.entry.added),
    rows.map((r) => r.entry.updated),
  ];
}

const ONE_STATEMENT_SQL = `
WITH b AS (
  UPDATE queues SET version = version + 1 WHERE user_id = $1 AND kind = $2 AND version = $3 RETURNING version
), d AS (
  DELETE FROM queue_items q USING b WHERE q.user_id = $1 AND q.kind = $2 AND q.title_id = ANY($4::int[])
), u AS (
  UPDATE queue_items q SET position = v.position, format = v.format, added = v.added, updated = v.updated
  FROM b, unnest($5::int[], $6::int[], $7::text[], $8::bigint[], $9::bigint[]) AS v(title_id, position, format, added, updated)
  WHERE q.user_id = $1 AND q.kind = $2 AND q.title_id = v.title_id
), i AS (
  INSERT INTO queue_items (user_id, kind, title_id, position, format, added, updated)
  SELECT $1, $2, v.title_id, v.position, v.format, v.added, v.updated
  FROM b, unnest($10::int[], $11::int[], $12::text[], $13::bigint[], $14::bigint[]) AS v(title_id, position, format, added, updated)
)
SELECT version FROM b`;
