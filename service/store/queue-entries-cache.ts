import type { Kysely } from 'kysely';
import type { QueueKind, StoredQueue } from './queue-types.ts';
import type { Database } from './schema.ts';

/** Queues whose entries a process keeps (least recently used dropped first). */
export const QUEUES_KEPT = 1_000;

interface Kept {
  version: number;
  queue: StoredQueue;
}

const held = new WeakMap<Kysely<Database>, Map<string, Kept>>();

function keptOf(k: Kysely<Database>): Map<string, Kept> {
  let map = held.get(k);
  if (!map) {
    map = new Map();
    held.set(k, map);
  }
  return map;
}

/**
 * A queue's entries and order keys as they were at `version`, when this process wrote or read that
 * version. Every change of a queue bumps its version in the same transaction (queues.ts is the only
 * writer of `queue_items`), so what is kept for the version a writer has just locked and bumped
 * from is exactly what the store holds: a move reads no entries. Another node's change bumps the
 * version past what is kept here, so the kept entries are simply not used.
 */
export function keptQueue(k: Kysely<Database>, userId: string, kind: QueueKind, version: number): StoredQueue | undefined {
  const kept = keptOf(k).get(`${userId} ${kind}`);
  return kept && kept.version === version ? kept.queue : undefined;
}

/** The version a queue's entries are kept at, if any. */
export function keptVersion(k: Kysely<Database>, userId: string, kind: QueueKind): number | undefined {
  return keptOf(k).get(`${userId} ${kind}`)?.version;
}

/** Keeps a queue at `version` (committed), unless a newer version is kept already. */
export function keepQueue(k: Kysely<Database>, userId: string, kind: QueueKind, version: number, queue: StoredQueue): void {
  const map = keptOf(k);
  const key = `${userId} ${kind}`;
  const previous = map.get(key);
  if (previous && previous.version > version) return;
  map.delete(key);
  map.set(key, { version, queue });
  if (map.size > QUEUES_KEPT) map.delete(map.keys().next().value!);
}
