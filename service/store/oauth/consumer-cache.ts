import { findConsumer } from './consumers.ts';
import type { Consumer } from '../../model/consumer.ts';
import type { Db } from '../db.ts';

/**
 * How long a consumer row is reused without reading it again. A revocation or quota change made
 * by another process (the `consumers` CLI) takes effect within this time; one made through this
 * process's `forgetConsumer` at once.
 */
export const CONSUMER_TTL_MS = 5000;
/** Consumers held at most (the oldest is dropped first). */
const MAX_CONSUMERS = 10_000;

/** The consumer for `key` (undefined when there is none), read at most once per CONSUMER_TTL_MS. */
export async function cachedConsumer(db: Db, key: string, nowMs = Date.now()): Promise<Consumer | undefined> {
  const cache = db.caches.consumers;
  const held = cache.get(key);
  if (held && held.until > nowMs) return held.consumer;
  const consumer = await findConsumer(db, key);
  cache.delete(key);
  if (!consumer) return undefined; // unknown keys are not held: a key created a moment later works at once
  if (cache.size >= MAX_CONSUMERS) cache.delete(cache.keys().next().value!);
  cache.set(key, { consumer, until: nowMs + CONSUMER_TTL_MS });
  return consumer;
}

/** Drops a held consumer (after revoking it or changing its quota in this process). */
export function forgetConsumer(db: Db, key: string): void {
  db.caches.consumers.delete(key);
}
