import type { Queue } from '../../../shared/models.ts';
import { availableOrder, rebaseOrder, splitQueue } from '../../../shared/pure/queue-order.ts';
import type { Client } from '../client/index.ts';
import { ServiceError } from '../types.ts';
import type { QueueIntent } from './outbox.ts';

/**
 * What an intent means for a queue as it is now (sync.ts sends it): a write, nothing to do
 * (already so), or a conflict to report in words. (The intent applied locally, for the optimistic
 * queue shown while it waits, is shared/pure/queue-intent.ts `applyIntent`.)
 */
export type Step =
  | { type: 'write'; run: (etag: string) => Promise<unknown> }
  /** A replace: make the available part `order` (already rebased onto the queue planned against). */
  | { type: 'bulk'; order: string[] }
  | { type: 'done' }
  | { type: 'conflict'; message: string };

/** What the intent means for `queue`: one write, nothing to do, or a conflict to report. */
export function planIntent(
  intent: QueueIntent,
  queue: Queue,
  client: Pick<Client, 'queueAdd' | 'queueMove' | 'queueRemove'>,
): Step {
  if (intent.op === 'replace') {
    const order = rebaseOrder(intent.refs, intent.base, queue.items);
    const now = availableOrder(queue.items);
    if (order.length === now.length && order.every((ref, i) => now[i] === ref)) return { type: 'done' };
    return { type: 'bulk', order };
  }
  const { available } = splitQueue(queue.items);
  const item = queue.items.find((i) => i.ref === intent.ref);
  const name = quoted(intent.name ?? item?.title);
  switch (intent.op) {
    case 'move': {
      if (!item)
        return { type: 'conflict', message: `${name} was removed on another device, so it could not be moved.` };
      if (item.position === null)
        return { type: 'conflict', message: `${name} is saved until it is released, so it cannot be moved.` };
      const target = Math.min(intent.position, available.length);
      if (item.position === target) return { type: 'done' };
      return { type: 'write', run: (etag) => client.queueMove(intent.kind, intent.ref, target, etag) };
    }
    case 'add': {
      if (item) return { type: 'done' };
      const position = intent.position === undefined ? undefined : Math.min(intent.position, available.length + 1);
      const opts = {
        ...(position !== undefined ? { position } : {}),
        ...(intent.format ? { format: intent.format } : {}),
      };
      return { type: 'write', run: (etag) => client.queueAdd(intent.kind, intent.ref, etag, opts) };
    }
    case 'remove':
      if (!item) return { type: 'done' };
      return { type: 'write', run: (etag) => client.queueRemove(item.itemRef, etag) };
  }
}

export const PAST: Record<QueueIntent['op'], string> = {
  move: 'moved',
  add: 'added',
  remove: 'removed',
  replace: 'reordered',
};

/** The quiet notice after a 412: the intent was rebased onto another device's change and applied. */
export function rebasedNotice(intent: QueueIntent): string {
  return `The queue changed on another device; your ${intent.op === 'move' ? 'move' : 'change'} was applied to the new order.`;
}

export function quoted(name: string | undefined): string {
  return name ? `“${name}”` : 'The title';
}

export function conflict(message: string): ServiceError {
  return new ServiceError({ kind: 'conflict', status: 412, message });
}

/** A replace the user stopped: how far it got, in words. */
export function stoppedNotice({ done, total }: { done: number; total: number }): string {
  return `You stopped the change after ${done} of ${total} steps; the queue shows the steps made.`;
}
