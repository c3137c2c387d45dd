import type { FastifyInstance } from 'fastify';
import { Message } from '../../shared/protocol/index.ts';
import { ApiError } from '../model/api-error.ts';

/** Longest request target accepted; longer GETs must be resent as POST with an override. */
export const MAX_URL_BYTES = 4096;

export function registerUrlLimit(app: FastifyInstance): void {
  // A callback hook: no promise per request for a check that never waits.
  app.addHook('onRequest', (req, _reply, done) => {
    if (urlTooLong(req.raw.url ?? '')) done(new ApiError(414, Message.uriTooLong));
    else done();
  });
}

/** Over MAX_URL_BYTES in UTF-8 (a byte is at most 3 per UTF-16 unit: only a long URL needs counting). */
export function urlTooLong(url: string): boolean {
  return url.length * 3 > MAX_URL_BYTES && Buffer.byteLength(url) > MAX_URL_BYTES;
}
