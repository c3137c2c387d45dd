import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { verifyRequest, type AuthContext } from '../oauth/verify.ts';
import { getUser } from '../store/subscriber/users.ts';
import { signedRequestOf } from './auth.ts';
import { ApiError } from '../model/api-error.ts';
import { params } from './params.ts';

export const BAD_FEED_TOKEN = 'Invalid feed token';

/**
 * A subscriber's feed URLs work without a signature (CONTRACT.md §3): the consumer key plus the
 * user's own `feed_token`. A wrong or rotated token is refused.
 */
export async function authenticateFeed(svc: ServiceContext, req: FastifyRequest): Promise<AuthContext> {
  const { consumer } = await verifyRequest(svc.verifier, signedRequestOf(req), 'key', { now: svc.now });
  const uid = (req.params as { uid?: string }).uid ?? '';
  const given = params(req).get('feed_token') ?? '';
  const user = await getUser(svc.db, uid);
  if (!user || !sameToken(given, user.feed_token)) throw new ApiError(403, BAD_FEED_TOKEN);
  return { consumer, token: { token: '', userId: user.id } };
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
