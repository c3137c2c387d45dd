import type { LightMyRequestResponse } from 'fastify';
import type { TestService } from './service.ts';
import { authHeader, type Credentials } from './oauth-client.ts';

export interface CallOptions {
  method?: string;
  /** Query parameters (sent in the URL and signed). */
  query?: Record<string, string>;
  /** Form body parameters (sent form-encoded and signed). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** `signed` (default): consumer signature; `key`: consumer key only; `none`: nothing. */
  auth?: 'signed' | 'key' | 'none';
  token?: Credentials;
  consumer?: Credentials;
  /** oauth_timestamp to sign with (a test that moved the service's clock). */
  timestamp?: number;
}

/** One request through Fastify's inject(): the full request path without a socket, signed like a client would. */
export async function call(svc: TestService, path: string, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  const method = options.method ?? 'GET';
  const consumer = options.consumer ?? svc.consumer;
  const host = new URL(svc.baseUrl).host;
  const query = new URLSearchParams(options.query ?? {});
  const headers: Record<string, string> = { host, ...options.headers };
  const auth = options.auth ?? 'signed';
  if (auth === 'key') query.set('oauth_consumer_key', consumer.key);
  const qs = query.toString().replace(/\+/g, '%20');
  const url = path + (qs ? `?${qs}` : '');
  if (auth === 'signed')
    headers.authorization = authHeader(
      consumer,
      method,
      `http://${host}${url}`,
      options.form ?? {},
      options.token,
      options.timestamp,
    );
  let payload: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(options.form).toString();
  }
  return svc.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
}

/** Text of the first `<name>…</name>` in an XML body (tests read shapes with small regexes and fast-xml-parser). */
export function xmlText(body: string, name: string): string | undefined {
  return new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(body)?.[1];
}
