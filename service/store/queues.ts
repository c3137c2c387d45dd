import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from './db.ts';
import { keepEntries, keptEntries } from './queue-entries-cache.ts';
import type { Database } from './schema.ts';

/** One row per subscriber and queue kind; `version` is the queue's ETag (migration 005-queues). */
export interface QueuesTable {
  user_id: string;
  kind: string;
  version: number;
}

/** A queue entry; `position` null means the saved part of the queue. */
export interface QueueItemsTable {
  user_id: string;
  kind: string;
  title_id: number;
  position: number | null;
  /** instant | DVD | Blu-ray */
  format: string;
  added: number;
  updated: number;
}

export const QUEUE_KINDS = ['instant', 'disc'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** A queue entry as handlers see it. */
export interface QueueEntry {
  title_id: number;
  position: number | null;
  format: string;
  added: number;
  updated: number;
}

export interface QueueState {
  version: number;
  /** Available entries by position (1..n), then saved entries by date added. */
  entries: QueueEntry[];
}

/** The queue was changed since the version the client named. */
export class StaleQueueError extends Error {
  constructor() {
    super('stale queue version');
    this.name = 'StaleQueueError';
  }
}

/** A change that turned out to change nothing: rolled back, the version is not bumped. */
class NoChange<R> extends Error {
  constructor(readonly result: R) {
    super('no change');
  }
}

/** A queue's version alone (0 when it has no row yet): what a kept page is checked against. */
export async function queueVersion(db: Db, userId: string, kind: QueueKind): Promise<number> {
  const row = await db.kysely.selectFrom('queues').select('version').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * The whole queue and its version, read consistently: one statement (the queue row left-joined to
 * its entries), so no transaction and no second round trip. No queue row: version 0, no entries.
 */
export async function readQueue(db: Db, userId: string, kind: QueueKind): Promise<QueueState> {
  const rows = await db.kysely
    .selectFrom('queues as q')
    .leftJoin('queue_items as i', (join) => join.onRef('i.user_id', '=', 'q.user_id').onRef('i.kind', '=', 'q.kind'))
    .select(['q.version', 'i.title_id', 'i.position', 'i.format', 'i.added', 'i.updated'])
    .where('q.user_id', '=', userId)
    .where('q.kind', '=', kind)
    .execute();
  const entries: QueueEntry[] = [];
  for (const r of rows) {
    if (r.title_id === null) continue; // the queue row without entries
    entries.push({ title_id: Number(r.title_id), position: r.position === null ? null : Number(r.position), format: r.format!, added: Number(r.added), updated: Number(r.updated) });
  }
  const state = { version: Number(rows[0]?.version ?? 0), entries: sortEntries(entries) };
  keepEntries(db.kysely, userId, kind, state.version, state.entries);
  return state;
}

async function loadEntries(k: Kysely<Database>, userId: string, kind: QueueKind): Promise<QueueEntry[]> {
  const rows = await k
    .selectFrom('queue_items')
    .select(['title_id', 'position', 'format', 'added', 'updated'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .execute();
  return sortEntries(rows.map((r) => ({ ...r, position: r.position === null ? null : Number(r.position), added: Number(r.added), updated: Number(r.updated) })));
}

export function sortEntries(entries: QueueEntry[]): QueueEntry[] {
  return [...entries].sort(queueOrder);
}

/** Queue order: available by position, then saved by date added. */
export function queueOrder(a: QueueEntry, b: QueueEntry): number {
  if (a.position !== null && b.position !== null) return a.position - b.position;
  if (a.position !== null) return -1;
  if (b.position !== null) return 1;
  return a.added - b.added || a.title_id - b.title_id;
}

/** Renumbers the available entries 1..n in their current order (saved ones stay null). */
export function renumber(entries: QueueEntry[]): QueueEntry[] {
  let n = 0;
  return entries.map((e) => (e.position === null ? e : { ...e, position: ++n }));
}

export interface ChangeOutcome<R> {
  /** The new queue contents in order: positions are renumbered 1..n on write. */
  entries: QueueEntry[];
  result: R;
  /** False: nothing changed; the transaction is rolled back and the version stays. */
  changed?: boolean;
}

/**
 * One change to a queue, all or nothing. In one transaction: create the queue row if missing,
 * lock and bump its version (only if it still is `expected`, when given; else StaleQueueError),
 * read the entries, let `change` compute the new list, and write it back with positions 1..n.
 * On PostgreSQL the row lock taken by the UPDATE serialises concurrent writers of the queue; on
 * SQLite the single connection serialises transactions. Errors thrown by `change` roll back.
 */
export async function changeQueue<R>(
  db: Db,
  userId: string,
  kind: QueueKind,
  expected: number | undefined,
  change: (entries: QueueEntry[], version: number) => Promise<ChangeOutcome<R>> | ChangeOutcome<R>,
): Promise<{ version: number; entries: QueueEntry[]; result: R; changed: boolean }> {
  try {
    const done = await db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('queues').values({ user_id: userId, kind, version: 0 }).onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing()).execute();
      let bump = trx
        .updateTable('queues')
        .set({ version: sql<number>`version + 1` })
        .where('user_id', '=', userId)
        .where('kind', '=', kind);
      if (expected !== undefined) bump = bump.where('version', '=', expected);
      const row = await bump.returning('version').executeTakeFirst();
      if (!row) throw new StaleQueueError();
      const version = Number(row.version);
      const before = [...(keptEntries(db.kysely, userId, kind, version - 1) ?? (await loadEntries(trx, userId, kind)))];
      const outcome = await change(before, version - 1);
      if (outcome.changed === false) throw new NoChange({ version: version - 1, entries: before, result: outcome.result, changed: false });
      const entries = renumber(outcome.entries);
      await writeEntries(trx, userId, kind, before, entries);
      return { version, entries, result: outcome.result, changed: true };
    });
    keepEntries(db.kysely, userId, kind, done.version, done.entries);
    return done;
  } catch (error) {
    if (!(error instanceof NoChange)) throw error;
    const unchanged = error.result as { version: number; entries: QueueEntry[]; result: R; changed: boolean };
    keepEntries(db.kysely, userId, kind, unchanged.version, unchanged.entries);
    return unchanged;
  }
}

/** Writes only the difference: deleted entries, new ones, and those whose fields changed. */
async function writeEntries(trx: Transaction<Database>, userId: string, kind: QueueKind, before: QueueEntry[], after: QueueEntry[]): Promise<void> {
  const old = new Map(before.map((e) => [e.title_id, e]));
  const keep = new Set(after.map((e) => e.title_id));
  const removed = before.filter((e) => !keep.has(e.title_id)).map((e) => e.title_id);
  const inserted = after.filter((e) => !old.has(e.title_id));
  let updated = after.filter((e) => {
    const o = old.get(e.title_id);
    return o && (o.position !== e.position || o.format !== e.format || o.updated !== e.updated || o.added !== e.added);
  });
  const remove = (ids: number[]) => trx.deleteFrom('queue_items').where('user_id', '=', userId).where('kind', '=', kind).where('title_id', 'in', ids).execute();
  for (let i = 0; i < removed.length; i += 500) await remove(removed.slice(i, i + 500));
  // A move or a removal shifts a run of entries by one place: one UPDATE for the whole run.
  const run = shiftedRun(before, old, updated);
  if (run) {
    await trx.updateTable('queue_items').set({ position: sql<number>`position + ${run.delta}` })
      .where('user_id', '=', userId).where('kind', '=', kind).where('position', '>=', run.from).where('position', '<=', run.to).execute();
    updated = updated.filter((e) => !run.ids.has(e.title_id));
  }
  // Many changed rows (a move near the top of a long queue): rewrite them in bulk.
  if (updated.length > 20) {
    const ids = updated.map((e) => e.title_id);
    for (let i = 0; i < ids.length; i += 500) await remove(ids.slice(i, i + 500));
    inserted.push(...updated);
  } else {
    for (const e of updated) {
      await trx
        .updateTable('queue_items')
        .set({ position: e.position, format: e.format, added: e.added, updated: e.updated })
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('title_id', '=', e.title_id)
        .execute();
    }
  }
  for (let i = 0; i < inserted.length; i += 200) {
    await trx
      .insertInto('queue_items')
      .values(inserted.slice(i, i + 200).map((e) => ({ user_id: userId, kind, ...e })))
      .execute();
  }
}

interface ShiftedRun {
  /** Old positions from..to (inclusive) all move by delta. */
  from: number;
  to: number;
  delta: number;
  ids: Set<number>;
}

/**
 * The longest run of changed entries whose only change is the same shift of position and whose old
 * positions are consecutive, when it holds every entry the store has at those positions (at least
 * two): what a move renumbers. Undefined otherwise.
 */
export function shiftedRun(before: readonly QueueEntry[], old: ReadonlyMap<number, QueueEntry>, updated: readonly QueueEntry[]): ShiftedRun | undefined {
  const byDelta = new Map<number, Array<{ from: number; id: number }>>();
  for (const e of updated) {
    const o = old.get(e.title_id);
    if (!o || o.position === null || e.position === null || o.format !== e.format || o.added !== e.added || o.updated !== e.updated) continue;
    const delta = e.position - o.position;
    const list = byDelta.get(delta) ?? [];
    list.push({ from: o.position, id: e.title_id });
    byDelta.set(delta, list);
  }
  let best: ShiftedRun | undefined;
  for (const [delta, list] of byDelta) {
    list.sort((a, b) => a.from - b.from);
    let start = 0;
    for (let i = 1; i <= list.length; i++) {
      if (i < list.length && list[i]!.from === list[i - 1]!.from + 1) continue;
      if (i - start >= 2 && (!best || i - start > best.ids.size)) {
        best = { from: list[start]!.from, to: list[i - 1]!.from, delta, ids: new Set(list.slice(start, i).map((x) => x.id)) };
      }
      start = i;
    }
  }
  if (!best) return undefined;
  const { from, to } = best;
  const held = before.filter((e) => e.position !== null && e.position >= from && e.position <= to).length;
  return held === best.ids.size ? best : undefined;
}
