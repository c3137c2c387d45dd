import type { ServiceProfile } from '../../../shared/models.ts';
import { createTransport } from '../transport/index.ts';
import { ServiceError } from '../types.ts';
import { parseCategories } from '../xml/index.ts';

/**
 * Checks a service profile before it is saved: one consumer-signed call (GET /categories/title_formats)
 * with its base URL, key and secret. Nothing is cached and no token is used. A failure is a
 * ServiceError 'invalid' whose message says what to fix, in words.
 */

export interface ProfileCheckOptions {
  fetch?: typeof fetch;
  now?: () => number;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
}

type Connection = Pick<ServiceProfile, 'baseUrl' | 'consumerKey' | 'consumerSecret'>;

const CHECK_PATH = '/categories/title_formats';

export async function checkProfile(profile: Connection, options: ProfileCheckOptions = {}): Promise<void> {
  const baseUrl = profile.baseUrl.replace(/\/+$/, '');
  const transport = createTransport({
    getContext: () => ({
      baseUrl,
      consumer: { key: profile.consumerKey, secret: profile.consumerSecret },
      token: null,
    }),
    maxAttempts: 2, // a kept-alive connection the server dropped fails once; a wrong address fails twice
    backoffBaseMs: 100,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  let body: string;
  try {
    body = (await transport.request({ url: `${baseUrl}${CHECK_PATH}`, level: 'signed', cache: false })).body;
  } catch (error) {
    throw explain(error, baseUrl);
  }
  try {
    parseCategories(body);
  } catch {
    throw notACatalog(baseUrl);
  }
}

function explain(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof ServiceError)) return error;
  const { kind, status } = error.appError;
  if (kind === 'offline') return invalid(`Couldn't reach ${baseUrl} — check the address.`);
  if (kind === 'auth') return invalid('The service refused the consumer key or secret: check both.', status);
  if (kind === 'quota')
    return invalid(
      `The service at ${baseUrl} refused the check: this consumer is over its quota. ${error.appError.message}.`,
      status,
    );
  return notACatalog(baseUrl, status);
}

function notACatalog(baseUrl: string, status?: number): ServiceError {
  return invalid(`${baseUrl} answered, but not as a Marquee catalog service — check the address.`, status);
}

function invalid(message: string, status?: number): ServiceError {
  return new ServiceError({ kind: 'invalid', message, ...(status !== undefined ? { status } : {}) });
}
