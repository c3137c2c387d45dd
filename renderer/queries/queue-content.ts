import type { Queue, QueueItem } from '../../shared/models.ts';
import { splitQueue, withOrder, type Placed } from '../../shared/pure/queue-order.ts';

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
  const ordered = withOrder(movedIn(queue, content.order), content.order);
  const { available } = splitQueue(ordered.items);
  const items = [...available, ...content.saved];
  return { ...ordered, items, total: ordered.total + (items.length - ordered.items.length) };
}

/** `queue` with its saved titles that `order` places shown as available (moved into the order). */
function movedIn(queue: Queue, order: readonly string[]): Queue {
  const wanted = new Set(order);
  if (!queue.items.some((i) => i.position === null && wanted.has(i.ref))) return queue;
  const items = queue.items.map((i) =>
    i.position === null && wanted.has(i.ref) ? { ...i, position: 0, availability: 'available now' } : i,
  );
  return { ...queue, items };
}

/**
 * The saved titles to add and remove to carry `target`'s (e.g. those before an edit) onto
 * `current`, where `undone` is what the edit left: a saved title the edit removed comes back
 * unless it is in the queue again already; one the edit brought goes again if it is still saved.
 */
export function savedChanges(
  target: QueueContent,
  undone: QueueContent,
  current: QueueContent,
): { add: QueueItem[]; remove: QueueItem[] } {
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

/** The content as the queue items the shared order functions read: the order numbered from 1, the saved titles unplaced. */
export function placedOf(content: QueueContent): Placed[] {
  return [...content.order.map((ref, i) => ({ ref, position: i + 1 })), ...content.saved];
}
