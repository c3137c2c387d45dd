import { gunzipSync } from 'node:zlib';
import { errorOf } from '../../../electron/core/transport/errors.ts';
import type { Credentials, ServiceRequest, ServiceResponse, Transport } from '../../../electron/core/types.ts';
import { authHeader } from '../../helpers/oauth-client.ts';

/**
 * A small test-only Transport (oauth-1.0a signing + fetch, no cache, no retries) so the client can
 * be tested against the real service before the production transport lands.
 */
export interface TestTransport extends Transport {
  /** The request as sent, its response returned whatever its status (no ServiceError). */
  raw(req: ServiceRequest): Promise<ServiceResponse>;
}

export function testTransport(opts: {
  baseUrl: string;
  consumer: Credentials;
  token: Credentials | null;
  log?: ServiceRequest[];
}): TestTransport {
  const t: TestTransport = {
    async request(req: ServiceRequest): Promise<ServiceResponse> {
      const res = await t.raw(req);
      if (res.status >= 400) throw errorOf(res, Date.now); // the core's one mapping of a failed answer
      return res;
    },
    async raw(req: ServiceRequest): Promise<ServiceResponse> {
      opts.log?.push(req);
      const method = req.method ?? 'GET';
      const u = new URL(
        /^https?:\/\//.test(req.url)
          ? req.url
          : opts.baseUrl.replace(/\/$/, '') + (req.url.startsWith('/') ? '' : '/') + req.url,
      );
      for (const [k, v] of Object.entries(req.query ?? {})) u.searchParams.set(k, v);
      if (req.level === 'key') u.searchParams.set('oauth_consumer_key', opts.consumer.key);
      const url = u.toString().replace(/\+/g, '%20');
      const headers: Record<string, string> = { 'accept-encoding': 'identity' };
      if (req.level !== 'key') {
        headers.authorization = authHeader(
          opts.consumer,
          method,
          url,
          req.form ?? {},
          req.level === 'protected' ? (opts.token ?? undefined) : undefined,
        );
      }
      let body: string | undefined;
      if (req.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(req.form).toString().replace(/\+/g, '%20');
      }
      if (req.ifMatch) headers['if-match'] = req.ifMatch;
      const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
      const buf = Buffer.from(await res.arrayBuffer());
      const text = (res.headers.get('content-encoding') === 'gzip' ? gunzipSync(buf) : buf).toString('utf8');
      const hdrs: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        hdrs[k.toLowerCase()] = v;
      });
      return { status: res.status, headers: hdrs, body: text, fromCache: false };
    },
  };
  return t;
}
