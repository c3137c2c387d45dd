/** What the request guard keeps per request: nonces (replay) and quota windows (CONTRACT §5, §6). */

import type { Admission, Charge, NonceClaim } from '../../model/admission.ts';

export type { Admission, Charge, NonceClaim };

/**
 * The hot path's writes, per database: on SQLite (one process owns the file) in memory, nonces
 * saved at a clean close; on PostgreSQL (nodes share it) one statement per batch of requests.
 */
export interface RequestGuard {
  /** Claims the nonce and, when it is new, charges one request to the consumer's quota. */
  admit(claim: NonceClaim, perSecond: number, now: number): Promise<Admission>;
  /** Charges a request that carries no nonce (consumer-key-only resources). */
  charge(consumerKey: string, perSecond: number, now: number): Promise<Charge>;
  /** A consumer's count in a quota window (`s:<second>` or `d:<date>`). */
  count(consumerKey: string, window: string): Promise<number>;
  /**
   * Upkeep on the service's clock (the newest request's): SQLite saves day counts and forgets old
   * seconds; PostgreSQL clears idle nonce partitions and old day counts. Runs on a timer; tests call it.
   */
  flush(): Promise<void>;
  /** Nonces held in this process's memory and the bytes they take (none on PostgreSQL: they are in the database). */
  held(): { nonces: number; bytes: number };
  close(): Promise<void>;
}

/** How long a nonce is kept: past the ±300 s timestamp window its timestamp alone refuses it. */
export const NONCE_KEEP_SECONDS = 310;
/** How often day counts are saved and old ones purged (SQLite). */
export const FLUSH_INTERVAL_MS = 1000;
