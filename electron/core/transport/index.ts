/**
 * The transport room's door: every request the core sends, signed (signer.ts) at its level, paced,
 * retried, revalidated against the ETag cache (etag-cache.ts), its failures mapped to AppError kinds.
 * Other rooms import only this file.
 */
export {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  isTimestampRefusal,
  type HttpTransport,
  type TransportOptions,
} from './transport.ts';
export { isTimeout } from './exchange.ts';
export { cacheKeyOf, resolveUrl } from './wire.ts';
export { sign } from './signer.ts';
export { parseStatusBody, type StatusBody } from './errors.ts';
export { appErrorOf, errorKindOf, type Refusal } from './answer-error.ts';
export { parseRetryAfter } from './retry-after.ts';
export { RequestPacer, type PacingOptions } from './pacing.ts';
export { backoffDelay, isAbortError, sleep, type BackoffOptions } from './backoff.ts';
export {
  openEtagCache,
  type CacheEntry,
  type EtagCache,
  type EtagCacheOptions,
  type EtagCacheStore,
} from './etag-cache.ts';
