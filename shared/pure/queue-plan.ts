import { longestAscendingRun } from './longest-run.ts';
import { splitQueue, type Placed } from './queue-order.ts';

/**
 * The shortest sequence of single edits that turns one queue order into another: the fallback of a
 * bulk change (queue.replace) when the service has no bulk replace. Nothing here talks to the service.
 */

/** One write of the sequence-of-moves fallback, in the order it must be sent. */
export type BulkStep =
  | { op: 'remove'; ref: string; itemRef: string }
  | { op: 'add'; ref: string; position: number }
  | { op: 'move'; ref: string; position: number };

/**
 * The single edits that make the available part of `items` exactly `desired`: removes of titles
 * left out (last position first), then, in desired order, an add or a move for each title that is
 * not part of the longest run already in the right relative order. Each position is 1-based and
 * true of the queue as the steps before it leave it.
 */
export function planSteps(items: readonly (Placed & { itemRef: string })[], desired: readonly string[]): BulkStep[] {
  const { available } = splitQueue(items);
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

/** The longest subsequence of `order` already in `desired`'s relative order. */
function inOrderAlready(order: readonly string[], desired: readonly string[]): Set<string> {
  const rank = new Map(desired.map((ref, i) => [ref, i]));
  const run = longestAscendingRun(order.map((ref) => rank.get(ref)));
  return new Set([...run].map((i) => order[i]!));
}
