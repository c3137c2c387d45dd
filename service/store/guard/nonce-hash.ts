import { hash } from 'node:crypto';
import type { NonceClaim } from './types.ts';

/**
 * The text a nonce is known by: OAuth scopes a nonce to (consumer, token, timestamp). Consumer keys
 * and tokens are the service's own (checked before the claim) and hold no newline, so this is
 * one-to-one.
 */
function claimText(claim: NonceClaim): string {
  return `${claim.consumerKey}\n${claim.token}\n${claim.timestamp}\n${claim.nonce}`;
}

/** A 64-bit digest as two unsigned 32-bit halves (what the in-memory nonce sets store). */
export interface NonceHash {
  lo: number;
  hi: number;
}

/**
 * SHA-256 of (secret, claim) cut to 64 bits. Keyed by a secret no client knows, so nobody can aim
 * many nonces at one slot of a set (a hash-flooding attack) or at another client's nonce; 64 bits
 * make a false "already used" among two million live nonces a one-in-10¹³ event.
 */
export function keyedNonceHash(secret: string, claim: NonceClaim): NonceHash {
  const digest = hash('sha256', secret + claimText(claim), 'buffer');
  return { lo: digest.readUInt32BE(0), hi: digest.readUInt32BE(4) };
}

/**
 * SHA-256 of the claim cut to 128 bits, as a PostgreSQL `uuid` (32 hex digits): what the nodes that
 * share a database store. Unkeyed, since every node must agree on it; a B-tree has no slot to flood.
 */
export function sharedNonceDigest(claim: NonceClaim): string {
  return hash('sha256', claimText(claim), 'hex').slice(0, 32);
}
