import { diffQueues } from './diff.ts';
import { assignKeys, firstKey, lastKey, sameRow, spread, unchangedEnds } from './keys.ts';
import type { QueueDiff, StoredQueue } from './types.ts';
import type { QueueEntry } from '../../model/queue.ts';

/** A change ready to write: the queue after it (entries numbered 1..n, keys) and the rows that differ. */
export interface QueuePlan {
  after: StoredQueue;
  diff: QueueDiff;
}

/**
 * Keys and rows for `entries` (the queue after a change, numbered 1..n) given the queue before it.
 * A move — one entry taken out and put back elsewhere, the rest in order — is found by comparing
 * the two lists between their unchanged ends, and writes the moved row alone; anything else is
 * keyed and diffed in general (keys.ts, diff.ts).
 */
export function planChange(before: StoredQueue, entries: readonly QueueEntry[]): QueuePlan {
  const move = plannedMove(before, entries);
  if (move) return move;
  const after = { entries, keys: assignKeys(before, entries) };
  return { after, diff: diffQueues(before, after) };
}

/** The plan of a move of one available entry, when `entries` is that; undefined otherwise. */
function plannedMove(before: StoredQueue, entries: readonly QueueEntry[]): QueuePlan | undefined {
  if (before.entries.length !== entries.length) return undefined;
  const { prefix, suffix } = unchangedEnds(before.entries, entries);
  const first = prefix;
  const last = entries.length - suffix - 1;
  if (last <= first) return undefined;
  const down = movedDown(before.entries, entries, first, last);
  if (!down && !movedUp(before.entries, entries, first, last)) return undefined;
  const keys = [...before.keys];
  let low: number;
  let high: number;
  if (down) {
    // The entry at `first` went to `last`: the others in between keep their keys, one place earlier.
    for (let i = first; i < last; i++) keys[i] = before.keys[i + 1]!;
    low = keys[last - 1]!;
    high = firstKey(keys, last + 1) ?? Infinity;
  } else {
    for (let i = last; i > first; i--) keys[i] = before.keys[i - 1]!;
    low = lastKey(keys, first) ?? 0;
    high = keys[first + 1]!;
  }
  const moved = down ? last : first;
  if (!spread(keys, [moved], low, high)) return undefined;
  const after = { entries, keys };
  return { after, diff: { removed: [], updated: [{ entry: entries[moved]!, key: keys[moved]! }], inserted: [] } };
}

/** entries[first..last] is before's run with its first entry taken to the end, all available. */
function movedDown(before: readonly QueueEntry[], after: readonly QueueEntry[], first: number, last: number): boolean {
  if (
    after[last]!.title_id !== before[first]!.title_id ||
    after[last]!.position === null ||
    before[first]!.position === null
  )
    return false;
  for (let i = first; i < last; i++) if (!sameAvailable(before[i + 1]!, after[i]!)) return false;
  return true;
}

/** entries[first..last] is before's run with its last entry taken to the front, all available. */
function movedUp(before: readonly QueueEntry[], after: readonly QueueEntry[], first: number, last: number): boolean {
  if (
    after[first]!.title_id !== before[last]!.title_id ||
    after[first]!.position === null ||
    before[last]!.position === null
  )
    return false;
  for (let i = first + 1; i <= last; i++) if (!sameAvailable(before[i - 1]!, after[i]!)) return false;
  return true;
}

function sameAvailable(old: QueueEntry, now: QueueEntry): boolean {
  return old.title_id === now.title_id && old.position !== null && now.position !== null && sameRow(old, now);
}
