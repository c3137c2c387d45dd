/** What the request guard keeps per request: nonces (replay) and quota windows (CONTRACT §5, §6). */

import type { Admission, Charge, NonceClaim } from '../../model/admission.ts';

export type { Admission, Charge, NonceClaim };

/**
 * The hot path's writes, per database: on SQLite (one process owns the file) in memory, saved in
 * batches; on PostgreSQL (nodes share it) one statement per request.
 */
export interface RequestGuard {
  /** Claims the nonce and, when it is new, charges one request to the consumer's quota. */
  admit(claim: NonceClaim, perSecond: number, now: number): Promise<Admission>;
  /** Charges a request that carries no nonce (consumer-key-only resources). */
  charge(consumerKey: string, perSecond: number, now: number): Promise<Charge>;
  /** A consumer's count in a quota window (`s:<second>` or `d:<date>`). */
  count(consumerKey: string, window: string): Promise<number>;
  /** Writes whatever is held in memory (called on a timer and at close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** How long a nonce is kept: past the ±300 s timestamp window its timestamp alone refuses it. */
export const NONCE_KEEP_SECONDS = 310;
/** How often held writes are saved and old rows purged. */
export const FLUSH_INTERVAL_MS = 1000;
/** Rows one purge statement deletes at most: a purge never holds the event loop for long. */
export const PURGE_BATCH = 1000;
