import type { Queue, QueueItem } from '../../shared/models.ts';
import type { Client } from './client.ts';
import type { QueueIntent } from './queue-outbox.ts';
import { ServiceError } from './types.ts';

/**
 * What an intent means for a queue as it is now (queue-sync.ts sends it): a write, nothing to do
 * (already so), or a conflict to report in words; and the intent applied locally, for the
 * optimistic queue shown while it waits.
 */
export type Step = { type: 'write'; run: (etag: string) => Promise<unknown> } | { type: 'done' } | { type: 'conflict'; message: string };

/** What the intent means for `queue`: one write, nothing to do, or a conflict to report. */
export function planIntent(intent: QueueIntent, queue: Queue, client: Pick<Client, 'queueAdd' | 'queueMove' | 'queueRemove'>): Step {
  const available = queue.items.filter((i) => i.position !== null);
  const item = queue.items.find((i) => i.ref === intent.ref);
  const name = quoted(intent.name ?? item?.title);
  switch (intent.op) {
    case 'move': {
      if (!item) return { type: 'conflict', message: `${name} was removed on another device, so it could not be moved.` };
      if (item.position === null) return { type: 'conflict', message: `${name} is saved until it is released, so it cannot be moved.` };
      const target = Math.min(intent.position, available.length);
      if (item.position === target) return { type: 'done' };
      return { type: 'write', run: (etag) => client.queueMove(intent.kind, intent.ref, target, etag) };
    }
    case 'add': {
      if (item) return { type: 'done' };
      const position = intent.position === undefined ? undefined : Math.min(intent.position, available.length + 1);
      const opts = { ...(position !== undefined ? { position } : {}), ...(intent.format ? { format: intent.format } : {}) };
      return { type: 'write', run: (etag) => client.queueAdd(intent.kind, intent.ref, etag, opts) };
    }
    case 'remove':
      if (!item) return { type: 'done' };
      return { type: 'write', run: (etag) => client.queueRemove(item.itemRef, etag) };
  }
}

export const PAST: Record<QueueIntent['op'], string> = { move: 'moved', add: 'added', remove: 'removed' };

export function quoted(name: string | undefined): string {
  return name ? `“${name}”` : 'The title';
}

export function conflict(message: string): ServiceError {
  return new ServiceError({ kind: 'conflict', status: 412, message });
}

/** An intent applied to a list of items without the service (for the optimistic queue). */
export function applyLocally(items: QueueItem[], intent: QueueIntent): QueueItem[] {
  const index = items.findIndex((i) => i.ref === intent.ref);
  if (intent.op === 'remove') return index < 0 ? items : renumber(items.filter((_, i) => i !== index));
  if (intent.op === 'add' || index < 0 || items[index]!.position === null) return items; // an add has no item to show yet
  const available = items.filter((i) => i.position !== null);
  const saved = items.filter((i) => i.position === null);
  const moving = items[index]!;
  const rest = available.filter((i) => i !== moving);
  rest.splice(Math.min(intent.position, available.length) - 1, 0, moving);
  return renumber([...rest, ...saved]);
}

function renumber(items: QueueItem[]): QueueItem[] {
  let n = 0;
  return items.map((i) => (i.position === null ? i : i.position === ++n ? i : { ...i, position: n }));
}
