import type { StoredQueue } from './types.ts';
import type { QueueKind } from '../../model/queue.ts';
import type { Db } from '../db.ts';

/** Queues whose entries a process keeps (least recently used dropped first). */
export const QUEUES_KEPT = 1_000;

/**
 * A queue's entries and order keys as they were at `version`, when this process wrote or read that
 * version. Every change of a queue bumps its version in the same transaction (queues.ts is the only
 * writer of `queue_items`), so what is kept for the version a writer has just locked and bumped
 * from is exactly what the store holds: a move reads no entries. Another node's change bumps the
 * version past what is kept here, so the kept entries are simply not used.
 */
export function keptQueue(db: Db, userId: string, kind: QueueKind, version: number): StoredQueue | undefined {
  const kept = db.caches.queues.get(`${userId} ${kind}`);
  return kept && kept.version === version ? kept.queue : undefined;
}

/** The version a queue's entries are kept at, if any. */
export function keptVersion(db: Db, userId: string, kind: QueueKind): number | undefined {
  return db.caches.queues.get(`${userId} ${kind}`)?.version;
}

/** Keeps a queue at `version` (committed), unless a newer version is kept already. */
export function keepQueue(db: Db, userId: string, kind: QueueKind, version: number, queue: StoredQueue): void {
  const map = db.caches.queues;
  const key = `${userId} ${kind}`;
  const previous = map.get(key);
  if (previous && previous.version > version) return;
  map.delete(key);
  map.set(key, { version, queue });
  if (map.size > QUEUES_KEPT) map.delete(map.keys().next().value!);
}
