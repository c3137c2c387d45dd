import type { QueueItem } from '../models.ts';

/**
 * The planner of bulk changes (queue.replace): rebasing a desired order onto the queue as it is
 * now, and the shortest sequence of single edits that turns one order into another (the fallback
 * when the service has no bulk replace). Pure functions over refs; nothing here talks to the service.
 */

/** One write of the sequence-of-moves fallback, in the order it must be sent. */
export type BulkStep =
  | { op: 'remove'; ref: string; itemRef: string }
  | { op: 'add'; ref: string; position: number }
  | { op: 'move'; ref: string; position: number };

/** The available titles of a queue, by position. */
export function availableOrder(items: readonly QueueItem[]): string[] {
  return items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!).map((i) => i.ref);
}

/**
 * The user's desired order `desired` (made while looking at `base`) rebased onto the queue's
 * `items` now:
 * - a title of `base` that is no longer queued was removed elsewhere: dropped;
 * - a title not in `base` and not queued is one the user adds: kept at its place;
 * - a title saved now cannot be placed: dropped (saved titles stay where they are);
 * - a title queued elsewhere since (in `items`, not in `base`, not desired) stays, right after
 *   the title that precedes it in the fresh queue (at the top when none does).
 * Without a `base`, `desired` is taken literally: every available title it leaves out leaves.
 */
export function rebaseOrder(desired: readonly string[], base: readonly string[] | undefined, items: readonly QueueItem[]): string[] {
  const fresh = availableOrder(items);
  const queued = new Set(fresh);
  const saved = new Set(items.filter((i) => i.position === null).map((i) => i.ref));
  const seen = base ? new Set(base) : undefined;
  const order = desired.filter((ref) => !saved.has(ref) && (queued.has(ref) || !seen?.has(ref)));
  if (!seen) return order;
  const wanted = new Set(desired);
  fresh.forEach((ref, i) => {
    if (wanted.has(ref) || seen.has(ref)) return;
    order.splice(afterPredecessor(order, fresh, i), 0, ref);
  });
  return order;
}

/** Index in `order` just after the nearest title before `fresh[i]` that `order` holds (0: none). */
function afterPredecessor(order: readonly string[], fresh: readonly string[], i: number): number {
  for (let j = i - 1; j >= 0; j--) {
    const at = order.indexOf(fresh[j]!);
    if (at >= 0) return at + 1;
  }
  return 0;
}

/**
 * The single edits that make the available part of `items` exactly `desired`: removes of titles
 * left out (last position first), then, in desired order, an add or a move for each title that is
 * not part of the longest run already in the right relative order. Each position is 1-based and
 * true of the queue as the steps before it leave it.
 */
export function planSteps(items: readonly QueueItem[], desired: readonly string[]): BulkStep[] {
  const available = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
  const wanted = new Set(desired);
  const steps: BulkStep[] = available
    .filter((i) => !wanted.has(i.ref))
    .reverse()
    .map((i) => ({ op: 'remove', ref: i.ref, itemRef: i.itemRef }));
  const order = available.map((i) => i.ref).filter((ref) => wanted.has(ref));
  const staying = inOrderAlready(order, desired);
  desired.forEach((ref, k) => {
    if (staying.has(ref)) return;
    const at = order.indexOf(ref);
    if (at >= 0) order.splice(at, 1);
    // Every title before it in `desired` is placed by now: go right after the one before it.
    const position = k === 0 ? 1 : order.indexOf(desired[k - 1]!) + 2;
    order.splice(position - 1, 0, ref);
    steps.push({ op: at >= 0 ? 'move' : 'add', ref, position });
  });
  return steps;
}

/** The longest subsequence of `order` already in `desired`'s relative order (patience sorting). */
function inOrderAlready(order: readonly string[], desired: readonly string[]): Set<string> {
  const rank = new Map(desired.map((ref, i) => [ref, i]));
  const ranks = order.map((ref) => rank.get(ref)!);
  const tails: number[] = []; // tails[l]: index in `order` ending the best run of length l + 1
  const previous: number[] = new Array<number>(order.length).fill(-1);
  ranks.forEach((r, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranks[tails[mid]!]! < r) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const run = new Set<string>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) run.add(order[i]!);
  return run;
}

/** `items` with the available part in `desired`'s order (titles not queued cannot be shown yet). */
export function applyOrderLocally(items: readonly QueueItem[], desired: readonly string[]): QueueItem[] {
  const byRef = new Map(items.filter((i) => i.position !== null).map((i) => [i.ref, i]));
  const available = desired.map((ref) => byRef.get(ref)).filter((i): i is QueueItem => i !== undefined);
  return renumber([...available, ...items.filter((i) => i.position === null)]);
}

/** Positions 1..n over the available items, in list order; saved items keep null. */
export function renumber(items: QueueItem[]): QueueItem[] {
  let n = 0;
  return items.map((i) => (i.position === null ? i : i.position === ++n ? i : { ...i, position: n }));
}
