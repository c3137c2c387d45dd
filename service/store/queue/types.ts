/** What every queue module shares: the kinds, an entry as handlers see it, the stale-version error. */

export const QUEUE_KINDS = ['instant', 'disc'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** A queue entry as handlers see it. Shared by the entries cache: never mutate one, replace it. */
export interface QueueEntry {
  title_id: number;
  position: number | null;
  format: string;
  added: number;
  updated: number;
}

/** The queue was changed since the version the client named. */
export class StaleQueueError extends Error {
  constructor() {
    super('stale queue version');
    this.name = 'StaleQueueError';
  }
}

/**
 * A queue as stored: its entries in queue order (available ones numbered 1..n) and, index for
 * index, each one's order key (the `position` column; null for a saved entry). Keys are sparse, so
 * a move rewrites one row; readers only ever see the numbers 1..n.
 */
export interface StoredQueue {
  entries: readonly QueueEntry[];
  keys: readonly (number | null)[];
}

/** A row of `queue_items` as read: `position` holds the order key, not the number readers see. */
export interface QueueItemRow {
  title_id: number;
  position: number | null;
  format: string;
  added: number;
  updated: number;
}
