import type { Db } from '../db.ts';
import type { Change, ChangeKind } from '../../model/change.ts';

/** How long the change table keeps a row: a stream resumed later than this starts afresh (a reset). */
export const CHANGES_KEPT_SECONDS = 24 * 3600;

/** Rows after `seq`, oldest first, at most `limit`: what a node's feed delivers (resources/changes/feed.ts). */
export async function changesAfter(db: Db, seq: number, limit: number): Promise<Change[]> {
  const rows = await db.kysely
    .selectFrom('changes')
    .selectAll()
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(changeOf);
}

/** The rows of these numbers that exist now (numbers a feed skipped, looked for again). */
export async function changesNumbered(db: Db, seqs: readonly number[]): Promise<Change[]> {
  const rows = await db.kysely.selectFrom('changes').selectAll().where('seq', 'in', seqs).orderBy('seq').execute();
  return rows.map(changeOf);
}

/**
 * What a stream resumed after `seq` must see for one subscriber: their rows and the catalog's after
 * it, and those recorded since `sinceAt` whatever their number (on PostgreSQL concurrent
 * transactions may commit a lower number after a higher one was read: sent again, never missed).
 */
export async function changesToReplay(
  db: Db,
  userId: string,
  seq: number,
  sinceAt: number,
  limit: number,
): Promise<Change[]> {
  const rows = await db.kysely
    .selectFrom('changes')
    .selectAll()
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
    .where((eb) => eb.or([eb('seq', '>', seq), eb('at', '>=', sinceAt)]))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(changeOf);
}

/** The newest and oldest numbers the table holds (0 when empty). */
export async function changeSpan(db: Db): Promise<{ oldest: number; newest: number }> {
  const row = await db.kysely
    .selectFrom('changes')
    .select((eb) => [eb.fn.min('seq').as('oldest'), eb.fn.max('seq').as('newest')])
    .executeTakeFirst();
  return { oldest: Number(row?.oldest ?? 0), newest: Number(row?.newest ?? 0) };
}

/** Drops rows recorded before `beforeAt` (Unix seconds). */
export async function pruneChanges(db: Db, beforeAt: number): Promise<void> {
  await db.kysely.deleteFrom('changes').where('at', '<', beforeAt).execute();
}

function changeOf(row: {
  seq: number;
  user_id: string | null;
  kind: string;
  subject: string;
  value: string | null;
  at: number;
}): Change {
  return {
    seq: Number(row.seq),
    userId: row.user_id,
    kind: row.kind as ChangeKind,
    subject: row.subject,
    value: row.value,
    at: Number(row.at),
  };
}
