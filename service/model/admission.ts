/** What the request guard answers per request: nonces (replay) and quota windows (CONTRACT §5, §6). */

/** A consumer's counts after one charge. */
export interface Charge {
  /** The consumer's count in the second window, this request included. */
  second: number;
  /** Its count in the day window, this request included; undefined when the second's budget refused it (not counted). */
  day: number | undefined;
}

/** One signed request's nonce, as OAuth scopes it: (consumer, token, timestamp, nonce). */
export interface NonceClaim {
  consumerKey: string;
  token: string;
  timestamp: number;
  nonce: string;
}

/**
 * `fresh`: the nonce was new and the request has been charged; `replay`: the nonce was used;
 * `stale`: signed before this process started after one that stopped without saving its nonces,
 * so whether it is a replay cannot be known (refused as a bad timestamp; the client re-signs).
 */
export type Admission = { kind: 'fresh'; charge: Charge } | { kind: 'replay' } | { kind: 'stale' };
