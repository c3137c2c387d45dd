/** A subscriber's two queues. */
export const QUEUE_KINDS = ['instant', 'disc'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** A queue entry as handlers see it. Shared by the entries cache: never mutate one, replace it. */
export interface QueueEntry {
  title_id: number;
  /** 1..n in the available part; null: saved. */
  position: number | null;
  format: string;
  added: number;
  updated: number;
}
