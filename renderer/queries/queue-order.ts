import type { Queue, QueueItem } from '../../shared/models.ts';

/**
 * Queue orders as plain lists of title refs: what an edit does to the available part, and how an
 * old order is carried onto a queue that changed since (undo, redo). No React, no I/O.
 */

/** The available part (ordered by position) and the saved part of a queue. */
export function splitQueue(items: readonly QueueItem[]): { available: QueueItem[]; saved: QueueItem[] } {
  const available = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
  const saved = items.filter((i) => i.position === null);
  return { available, saved };
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
 * `queue` shown in `order` at once (the optimistic view): available items renumbered in that
 * order, titles not listed dropped, saved ones kept. Titles unknown to the queue cannot be shown
 * before the service answers and are left out.
 */
export function withOrder(queue: Queue, order: readonly string[]): Queue {
  const { available, saved } = splitQueue(queue.items);
  const byRef = new Map(available.map((i) => [i.ref, i]));
  const ordered = order.flatMap((ref) => {
    const item = byRef.get(ref);
    return item ? [item] : [];
  });
  const renumbered = ordered.map((item, i) => (item.position === i + 1 ? item : { ...item, position: i + 1 }));
  const items = [...renumbered, ...saved];
  return { ...queue, items, total: queue.total + (items.length - queue.items.length) };
}

/**
 * Carries `target` (an order the person wants back, e.g. the one before an edit) onto `current`
 * (the queue as it is now), where `undone` is the order the edit produced. Titles the edit removed
 * come back; titles removed elsewhere since stay removed; titles added elsewhere since keep their
 * current place.
 */
export function rebaseOrder(target: readonly string[], undone: readonly string[], current: readonly string[]): string[] {
  const inCurrent = new Set(current);
  const inUndone = new Set(undone);
  const inTarget = new Set(target);
  const kept = target.filter((ref) => inCurrent.has(ref) || !inUndone.has(ref));
  const result = [...kept];
  current.forEach((ref, index) => {
    if (inTarget.has(ref) || inUndone.has(ref)) return;
    result.splice(Math.min(index, result.length), 0, ref);
  });
  return result;
}

/**
 * What an edit can change of a queue, and so what undo and redo carry back: the available order,
 * and the saved titles (kept whole, so a saved title undone back into the queue shows at once).
 */
export interface QueueContent {
  order: string[];
  saved: QueueItem[];
}

export function contentOf(queue: Queue | undefined): QueueContent {
  if (!queue) return { order: [], saved: [] };
  const { available, saved } = splitQueue(queue.items);
  return { order: available.map((i) => i.ref), saved };
}

/** `queue` showing `content` at once: the available part in its order (see withOrder), its saved titles. */
export function withContent(queue: Queue, content: QueueContent): Queue {
  const ordered = withOrder(queue, content.order);
  const available = ordered.items.filter((i) => i.position !== null);
  const items = [...available, ...content.saved];
  return { ...ordered, items, total: ordered.total + (items.length - ordered.items.length) };
}

/**
 * The saved titles to add and remove to carry `target`'s (e.g. those before an edit) onto
 * `current`, where `undone` is what the edit left: a saved title the edit removed comes back
 * unless it is in the queue again already; one the edit brought goes again if it is still saved.
 */
export function savedChanges(target: QueueContent, undone: QueueContent, current: QueueContent): { add: QueueItem[]; remove: QueueItem[] } {
  const inTarget = new Set(target.saved.map((i) => i.ref));
  const inUndone = new Set(undone.saved.map((i) => i.ref));
  const queued = new Set([...current.order, ...current.saved.map((i) => i.ref)]);
  return {
    add: target.saved.filter((i) => !inUndone.has(i.ref) && !queued.has(i.ref)),
    remove: current.saved.filter((i) => inUndone.has(i.ref) && !inTarget.has(i.ref)),
  };
}

export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((ref, i) => ref === b[i]);
}
