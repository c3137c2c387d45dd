import { longestAscendingRun } from '../../../shared/pure/longest-run.ts';
import type { StoredQueue } from './types.ts';
import type { QueueEntry } from '../../model/queue.ts';

/** The distance between neighbouring order keys after a respace: room for 16 halvings at one spot. */
export const KEY_GAP = 1 << 16;
/** Keys stay below this (PostgreSQL's `integer` is 32-bit); past it the queue is respaced. */
export const MAX_KEY = 2 ** 31 - 1;

/**
 * Order keys for `after` (in queue order): each available entry's stored `position`, a sparse
 * ascending integer; null for saved entries. Readers number entries 1..n by key order, so a key is
 * only ever compared. Entries that keep their place relative to the others keep their keys (the
 * longest run of old keys still ascending), the others take keys in the gaps between them: a move
 * rewrites one row, not the run it jumps over. When a gap is too narrow, every key is respaced.
 */
export function assignKeys(before: StoredQueue, after: readonly QueueEntry[]): (number | null)[] {
  const { prefix, suffix } = unchangedEnds(before.entries, after);
  const keys: (number | null)[] = new Array<number | null>(after.length);
  for (let i = 0; i < prefix; i++) keys[i] = before.keys[i]!;
  for (let j = 1; j <= suffix; j++) keys[after.length - j] = before.keys[before.entries.length - j]!;
  const lower = lastKey(keys, prefix) ?? 0;
  const upper = firstKey(keys, after.length - suffix) ?? Infinity;
  // Old keys of the entries in between that may be kept: those still between the unchanged ends.
  const oldKeys = new Map<number, number>();
  const oldEntries = new Map<number, QueueEntry>();
  for (let i = prefix; i < before.entries.length - suffix; i++) {
    const key = before.keys[i];
    if (key === null || key === undefined || key <= lower || key >= upper) continue;
    oldKeys.set(before.entries[i]!.title_id, key);
    oldEntries.set(before.entries[i]!.title_id, before.entries[i]!);
  }
  const middle: number[] = []; // indexes of after's available entries between the unchanged ends
  for (let i = prefix; i < after.length - suffix; i++) {
    if (after[i]!.position === null) keys[i] = null;
    else middle.push(i);
  }
  // An entry whose row is rewritten anyway (a moved one: `updated` changes) takes a new key for free.
  const kept = longestAscendingRun(
    middle.map((i) =>
      sameRow(oldEntries.get(after[i]!.title_id), after[i]!) ? oldKeys.get(after[i]!.title_id) : undefined,
    ),
  );
  return fillGaps(keys, middle, kept, lower, upper, oldKeys, after) ? keys : respaced(after);
}

/** True when the stored fields but the key are equal (the number 1..n is not stored). */
export function sameRow(a: QueueEntry | undefined, b: QueueEntry): boolean {
  return a !== undefined && a.format === b.format && a.added === b.added && a.updated === b.updated;
}

/** How many entries at each end are the same objects in both lists (entries are never mutated). */
export function unchangedEnds(
  before: readonly QueueEntry[],
  after: readonly QueueEntry[],
): { prefix: number; suffix: number } {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

/**
 * Gives every available entry of `middle` not in `kept` a key between its kept neighbours (or the
 * bounds). False when some gap has no room: the caller respaces.
 */
function fillGaps(
  keys: (number | null)[],
  middle: number[],
  kept: Set<number>,
  lower: number,
  upper: number,
  oldKeys: Map<number, number>,
  after: readonly QueueEntry[],
): boolean {
  let low = lower;
  let run: number[] = [];
  for (let m = 0; m <= middle.length; m++) {
    const index = middle[m];
    if (index !== undefined && !kept.has(m)) {
      run.push(index);
      continue;
    }
    const high = index === undefined ? upper : oldKeys.get(after[index]!.title_id)!;
    if (!spread(keys, run, low, high)) return false;
    if (index === undefined) break;
    keys[index] = high;
    low = high;
    run = [];
  }
  return true;
}

/** Keys for `run` strictly between low and high, evenly spaced; false when they do not fit. */
export function spread(keys: (number | null)[], run: number[], low: number, high: number): boolean {
  if (run.length === 0) return true;
  if (high === Infinity) {
    if (low + KEY_GAP * run.length > MAX_KEY) return false;
    run.forEach((index, j) => (keys[index] = low + KEY_GAP * (j + 1)));
    return true;
  }
  if (high - low <= run.length) return false;
  run.forEach((index, j) => (keys[index] = low + Math.floor(((j + 1) * (high - low)) / (run.length + 1))));
  return true;
}

/** Every available entry keyed anew, KEY_GAP apart. */
export function respaced(entries: readonly QueueEntry[]): (number | null)[] {
  let n = 0;
  return entries.map((e) => (e.position === null ? null : ++n * KEY_GAP));
}

export function lastKey(keys: readonly (number | null)[], end: number): number | undefined {
  for (let i = end - 1; i >= 0; i--) if (keys[i] !== null) return keys[i]!;
  return undefined;
}

export function firstKey(keys: readonly (number | null)[], start: number): number | undefined {
  for (let i = start; i < keys.length; i++) if (keys[i] !== null) return keys[i]!;
  return undefined;
}
