import type { FastifyInstance } from 'fastify';
import type { Params } from './params.ts';
import type { KeptLevel, RenderedCache } from './rendered-cache.ts';

/** What the service notes on a request or reply while answering it: each field's module reads and writes it. */
declare module 'fastify' {
  interface FastifyRequest {
    /** The request's parameters, parsed on first use (params.ts). */
    parsedParams: Params | null;
    /** The consumer OAuth verified for this request, for its log line (route.ts sets it; observe.ts reads it). */
    consumerKey: string | null;
  }
  interface FastifyReply {
    /** The ETag header already is the hash of the body, so the ETag hook need not hash it (etag.ts). */
    contentEtag: boolean;
    /** The version of the resource a 200 represents: its ETag is then version and hash (etag.ts). */
    etagVersion: number | null;
    /** Where a cached catalog resource's representation is kept once rendered (represent-cache.ts). */
    renderSlot: { cache: RenderedCache; key: string; level: KeptLevel | undefined } | null;
  }
}

/** Declares the fields to Fastify, so every request and reply is made with them (one shape). */
export function registerRequestFields(app: FastifyInstance): void {
  app.decorateRequest('parsedParams', null);
  app.decorateRequest('consumerKey', null);
  app.decorateReply('contentEtag', false);
  app.decorateReply('etagVersion', null);
  app.decorateReply('renderSlot', null);
}
