import type { FastifyInstance } from 'fastify';

/** Request bodies are limited to 1 MiB (413 beyond, CONTRACT.md §6). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * Form bodies become ordered [name, value] pairs (OAuth signs them, old clients repeat names);
 * any other body is kept as text for the resource to read. An empty body is never an error.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_req, body, done) => {
      done(null, [...new URLSearchParams(body as string)]);
    },
  );
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, body);
  });
}
