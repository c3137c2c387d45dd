import { applyOrder, availableOrder, moveRef, rebaseOrder, renumber, type Placed } from './queue-order.ts';

/**
 * A queue edit applied to a list of items without the service: the optimistic queue shown while
 * the edit waits (offline, or on its way). No imports beyond shared/pure, no I/O.
 */

/** What applying an edit reads of it (the core's QueueIntent has these fields and more). */
export type OrderIntent =
  | { op: 'move'; ref: string; position: number }
  | { op: 'add'; ref: string }
  | { op: 'remove'; ref: string }
  | { op: 'replace'; refs: readonly string[]; base?: readonly string[] | undefined };

/** `items` (available ones in position order, then saved ones) after `intent`; an add has no item to show yet. */
export function applyIntent<T extends Placed>(items: T[], intent: OrderIntent): T[] {
  if (intent.op === 'replace') return applyOrder(items, rebaseOrder(intent.refs, intent.base, items));
  const index = items.findIndex((i) => i.ref === intent.ref);
  if (intent.op === 'remove') return index < 0 ? items : renumber(items.filter((_, i) => i !== index));
  if (intent.op === 'add' || index < 0 || items[index]!.position === null) return items;
  return applyOrder(items, moveRef(availableOrder(items), intent.ref, intent.position));
}
