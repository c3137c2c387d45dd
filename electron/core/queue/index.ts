/**
 * The queue room's door: queue edits as intents (sync.ts explains the parts), kept in an outbox
 * file until the service applied them, rebased and retried on a 412, replayed after going offline.
 * Other rooms import only this file.
 */
export { createQueueSync, type QueueSync, type QueueSyncOptions } from './sync.ts';
export type { SyncedQueue } from './known.ts';
export { openQueueOutbox, type OutboxEntry, type QueueIntent, type QueueOutbox, type ReplaceIntent } from './outbox.ts';
export type { AddressOf } from './addresses.ts';
