import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../model/api-error.ts';

/**
 * Who may read /metrics: a caller on loopback (a Prometheus or an agent on the same machine),
 * and anyone sending the configured bearer token. `req.ip` is the socket's address, or the
 * client's as a trusted proxy forwards it, so a proxy on the same host does not open it to all.
 * Throws the refusal, in words that say how to get in.
 */
export function checkMetricsAccess(req: FastifyRequest, token: string | undefined): void {
  const sent = bearerOf(req.headers.authorization);
  if (sent !== undefined) {
    if (token !== undefined && sameSecret(sent, token)) return;
    throw new ApiError(
      401,
      'The metrics token is wrong: send Authorization: Bearer <the --metrics-token value>',
      undefined,
      {
        'www-authenticate': 'Bearer realm="metrics"',
      },
    );
  }
  if (isLoopback(req.ip)) return;
  if (token !== undefined)
    throw new ApiError(
      401,
      'Metrics need a token from beyond loopback: send Authorization: Bearer <token>',
      undefined,
      {
        'www-authenticate': 'Bearer realm="metrics"',
      },
    );
  throw new ApiError(
    403,
    'Metrics are served on loopback only; start the service with --metrics-token (or MARQUEE_METRICS_TOKEN) to read them from elsewhere',
  );
}

/** The token of `Authorization: Bearer <token>`, or undefined for no header or another scheme. */
function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** Compared by their hashes in constant time: neither length nor a prefix leaks. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip.startsWith('::ffff:127.');
}
