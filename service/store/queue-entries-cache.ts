import type { Kysely } from 'kysely';
import type { QueueEntry, QueueKind } from './queues.ts';
import type { Database } from './schema.ts';

/** Queues whose entries a process keeps (least recently used dropped first). */
export const QUEUES_KEPT = 1_000;

interface Kept {
  version: number;
  entries: readonly QueueEntry[];
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
 * A queue's entries as they were at `version`, when this process wrote or read that version. Every
 * change of a queue bumps its version in the same transaction (queues.ts is the only writer of
 * `queue_items`), so entries kept for the version a writer has just locked and bumped from are
 * exactly what the store holds: a move reads no entries. Another node's change bumps the version
 * past what is kept here, so the kept entries are simply not used.
 */
export function keptEntries(k: Kysely<Database>, userId: string, kind: QueueKind, version: number): readonly QueueEntry[] | undefined {
  const kept = keptOf(k).get(`${userId} ${kind}`);
  return kept && kept.version === version ? kept.entries : undefined;
}

/** Keeps a queue's entries at `version` (committed), unless a newer version is kept already. */
export function keepEntries(k: Kysely<Database>, userId: string, kind: QueueKind, version: number, entries: readonly QueueEntry[]): void {
  const map = keptOf(k);
  const key = `${userId} ${kind}`;
  const previous = map.get(key);
  if (previous && previous.version > version) return;
  map.delete(key);
  map.set(key, { version, entries });
  if (map.size > QUEUES_KEPT) map.delete(map.keys().next().value!);
}
