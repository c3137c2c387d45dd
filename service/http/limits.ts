import type { FastifyInstance } from 'fastify';
import { Message } from '../../shared/protocol/index.ts';
import { ApiError } from '../model/api-error.ts';

/** Longest request target accepted; longer GETs must be resent as POST with an override. */
export const MAX_URL_BYTES = 4096;

export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (Buffer.byteLength(req.raw.url ?? '') > MAX_URL_BYTES) throw new ApiError(414, Message.uriTooLong);
  });
}
