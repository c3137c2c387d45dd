import type { IncomingMessage } from 'node:http';
import type { AuthContext } from '../oauth/verify.ts';

/** A request the kept-GET path verified (signature, nonce claimed, quota charged) and then handed to the routes. */
type HandedOver = IncomingMessage & { verifiedAuth?: AuthContext };

/**
 * Notes on the request what the kept-GET path (kept-get.ts) already did, so the route answers it
 * without verifying again: its nonce is claimed now, and a second claim would read as a replay.
 */
export function handOver(req: IncomingMessage, auth: AuthContext): void {
  (req as HandedOver).verifiedAuth = auth;
}

/** The verification the kept-GET path handed over with the request, if it did. */
export function handedOverAuth(req: IncomingMessage): AuthContext | undefined {
  return (req as HandedOver).verifiedAuth;
}
