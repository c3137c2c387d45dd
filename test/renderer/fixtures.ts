import type { Queue, QueueItem } from '../../shared/models.ts';

/** A queue item with only what the queue logic reads filled in meaningfully. */
export function item(ref: string, position: number | null): QueueItem {
  return {
    ref,
    title: `Title ${ref}`,
    position,
    availability: position === null ? 'saved' : 'available now',
    format: 'instant',
  } as QueueItem;
}

/** A queue of `available` in order (positions 1…n) followed by `saved` titles. */
export function queueOf(available: readonly string[], saved: readonly string[] = [], pendingEdits = 0): Queue {
  const items = [...available.map((ref, i) => item(ref, i + 1)), ...saved.map((ref) => item(ref, null))];
  return { kind: 'instant', view: 'all', etag: '"1"', total: items.length, items, pendingEdits };
}
