import type { QueueDiff, QueueRow, StoredQueue } from './types.ts';
import type { QueueEntry } from '../../model/queue.ts';

/**
 * What turns `before` into `after`. An index holding the same entry object and key in both is
 * unchanged (entries are never mutated): only the others are matched by title id. A row is
 * rewritten when its key or a stored field changed; the number 1..n is not stored.
 */
export function diffQueues(before: StoredQueue, after: StoredQueue): QueueDiff {
  const old = new Map<number, { entry: QueueEntry; key: number | null }>();
  const changed: QueueRow[] = [];
  const length = Math.max(before.entries.length, after.entries.length);
  for (let i = 0; i < length; i++) {
    const b = before.entries[i];
    const a = after.entries[i];
    if (a === b && before.keys[i] === after.keys[i]) continue;
    if (b) old.set(b.title_id, { entry: b, key: before.keys[i] ?? null });
    if (a) changed.push({ entry: a, key: after.keys[i] ?? null });
  }
  const seen = new Set<number>();
  const inserted: QueueRow[] = [];
  const updated: QueueRow[] = [];
  for (const row of changed) {
    const o = old.get(row.entry.title_id);
    if (!o) {
      inserted.push(row);
      continue;
    }
    seen.add(row.entry.title_id);
    if (
      o.key !== row.key ||
      o.entry.format !== row.entry.format ||
      o.entry.added !== row.entry.added ||
      o.entry.updated !== row.entry.updated
    )
      updated.push(row);
  }
  const removed = [...old.keys()].filter((id) => !seen.has(id));
  return { removed, updated, inserted };
}
