/**
 * Queue orders as plain lists of title refs: the available part of a queue, what an edit does to
 * it, and how an order wanted while looking at one queue is carried onto the queue as it is now
 * (another device's change, an undo). Written once for the renderer, the app's core and the
 * service: no imports, no I/O. Splitting and renumbering read only a position, so the service's
 * entries (keyed by title id) and the app's items (keyed by ref) share them.
 */

/** What splitting and renumbering read of a queue entry: its place (null: saved, not in the available order). */
export interface Positioned {
  position: number | null;
}

/** What the order functions read of a queue item: its title, and its place. */
export interface Placed extends Positioned {
  ref: string;
}

/** The available part (ordered by position) and the saved part of a queue. */
export function splitQueue<T extends Positioned>(items: readonly T[]): { available: T[]; saved: T[] } {
  const available = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
  const saved = items.filter((i) => i.position === null);
  return { available, saved };
}

/** The available titles of a queue, by position. */
export function availableOrder(items: readonly Placed[]): string[] {
  return splitQueue(items).available.map((i) => i.ref);
}

/** `refs` with `ref` moved to 1-based `position` (clamped to the list). */
export function moveRef(refs: readonly string[], ref: string, position: number): string[] {
  const rest = refs.filter((r) => r !== ref);
  if (rest.length === refs.length) return [...refs];
  const index = Math.max(0, Math.min(position - 1, rest.length));
  rest.splice(index, 0, ref);
  return rest;
}

/** The chosen titles at the top or the bottom, keeping their relative order and everyone else's. */
export function moveToEdge(refs: readonly string[], chosen: ReadonlySet<string>, edge: 'top' | 'bottom'): string[] {
  const picked = refs.filter((r) => chosen.has(r));
  const rest = refs.filter((r) => !chosen.has(r));
  return edge === 'top' ? [...picked, ...rest] : [...rest, ...picked];
}

export function withoutRefs(refs: readonly string[], gone: ReadonlySet<string>): string[] {
  return refs.filter((r) => !gone.has(r));
}

/**
 * Positions 1..n over the available items, in list order; saved items keep null. An item already
 * at its place is kept as the same object, so a diff of the result passes over it unread.
 */
export function renumber<T extends Positioned>(items: readonly T[]): T[] {
  let n = 0;
  return items.map((i) => (i.position === null ? i : i.position === ++n ? i : { ...i, position: n }));
}

/**
 * `items` with the available part in `desired`'s order, renumbered, saved items after it. Titles
 * `desired` leaves out are dropped; titles not queued cannot be shown before the service answers.
 */
export function applyOrder<T extends Placed>(items: readonly T[], desired: readonly string[]): T[] {
  const byRef = new Map(items.filter((i) => i.position !== null).map((i) => [i.ref, i]));
  const available = desired.map((ref) => byRef.get(ref)).filter((i): i is T => i !== undefined);
  return renumber([...available, ...items.filter((i) => i.position === null)]);
}

/** `queue` shown in `order` at once (the optimistic view): {@link applyOrder} on its items, its total kept true. */
export function withOrder<Q extends { items: readonly Placed[]; total: number }>(
  queue: Q,
  order: readonly string[],
): Q {
  const items = applyOrder(queue.items, order);
  return { ...queue, items, total: queue.total + (items.length - queue.items.length) };
}

/**
 * The order `desired` (made while looking at the available order `base`) rebased onto the queue's
 * `items` now:
 * - a title of `base` that is no longer queued was removed elsewhere: dropped;
 * - a title not in `base` and not queued is one the user adds (or an undo brings back): kept at its place;
 * - a title saved now cannot be placed: dropped (saved titles stay where they are);
 * - a title queued elsewhere since (in `items`, not in `base`, not desired) stays, right after
 *   the title that precedes it in the fresh queue (at the top when none does).
 * Without a `base`, `desired` is taken literally: every available title it leaves out leaves.
 */
export function rebaseOrder(
  desired: readonly string[],
  base: readonly string[] | undefined,
  items: readonly Placed[],
): string[] {
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
