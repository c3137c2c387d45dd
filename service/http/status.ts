import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Message } from '../../shared/protocol/index.ts';
import { el, textEl, type XmlElement } from '../xml/node.ts';
import { ApiError } from '../model/api-error.ts';
import { MAX_URL_BYTES } from './limits.ts';
import { etagAndGzip } from './etag.ts';
import { render, represent } from './represent.ts';

export interface StatusExtras {
  subCode?: number | undefined;
  etag?: string;
  resourcesCreated?: XmlElement[];
  failedTitleRefs?: XmlElement[] | undefined;
  alreadyInQueue?: XmlElement[] | undefined;
}

/** The contract's `<status>` element: body of every write and of every failed request. */
export function statusElement(code: number, message: string | undefined, extras: StatusExtras = {}): XmlElement {
  return el(
    'status',
    null,
    textEl('status_code', code),
    extras.subCode !== undefined && textEl('sub_code', extras.subCode),
    message !== undefined && textEl('message', message),
    extras.etag !== undefined && textEl('etag', extras.etag),
    extras.resourcesCreated && el('resources_created', null, extras.resourcesCreated),
    extras.failedTitleRefs && el('failed_title_refs', null, extras.failedTitleRefs),
    extras.alreadyInQueue && el('already_in_queue', null, extras.alreadyInQueue),
  );
}

export function sendStatus(
  req: FastifyRequest,
  reply: FastifyReply,
  code: number,
  message?: string,
  extras?: StatusExtras,
): FastifyReply {
  return represent(req, reply.code(code), statusElement(code, message, extras));
}

/** Every failure, ours or Fastify's, leaves as a status body with the same HTTP code. */
export function registerStatusHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers);
      return sendStatus(req, reply, error.statusCode, error.message, { subCode: error.subCode });
    }
    const code =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (code === 500) req.log.error({ err: error }, 'unhandled error');
    const message = code === 500 ? Message.internal : code === 413 ? Message.bodyTooLarge : error.message;
    return sendStatus(req, reply, code, message);
  });
  app.setNotFoundHandler((req, reply) => sendStatus(req, reply, 404, Message.notFound));
}

/**
 * Fastify's `frameworkErrors` option: failures the router meets before any route or hook runs (a
 * path that is not valid percent-encoding, a path segment longer than the router takes) leave as a
 * status body too. Such a path names no resource (404), unless the URL is over the limit (414).
 * No hook runs for these replies, so the ETag and gzip rule is applied here.
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  let code = 404;
  let message: string = Message.notFound;
  if (Buffer.byteLength(req.raw.url ?? '') > MAX_URL_BYTES) [code, message] = [414, Message.uriTooLong];
  else if (error.code !== 'FST_ERR_BAD_URL' && error.code !== 'FST_ERR_MAX_PARAM_LENGTH') {
    req.log.error({ err: error }, 'framework error');
    [code, message] = [500, Message.internal];
  }
  const { type, body } = render(req, statusElement(code, message));
  reply.code(code).type(type);
  let payload: unknown = body;
  try {
    payload = etagAndGzip()(req, reply, body);
  } catch {
    // as it was: the status body without an ETag
  }
  reply.send(payload);
}
