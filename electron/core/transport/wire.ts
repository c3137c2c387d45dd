import { encodeParams, sign, wellFormed, type ParamList } from './signer.ts';
import type { ServiceRequest, SigningContext } from '../types.ts';

/**
 * A request as the transport (transport.ts) puts it on the wire, and the answer it reads: URLs,
 * headers, the ETag cache key and the headers kept with a cached body.
 */

export interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request as it goes on the wire. `override`: transport POST with X-HTTP-Method-Override
 * naming the method; `paramsInBody`: query parameters travel in the form body (always with an
 * override). The key level puts `oauth_consumer_key` alone in the query; the signed levels sign
 * the transport method, URL, query and body and send the OAuth parameters (with `req.oauth`'s) in
 * the header.
 */
export function buildWire(
  ctx: SigningContext,
  req: ServiceRequest,
  method: string,
  base: string,
  query: ParamList,
  form: ParamList,
  override: boolean,
  paramsInBody: boolean,
  cachedEtag: string | undefined,
  timestamp: number,
): Wire {
  const transportMethod = override ? 'POST' : method;
  const inBody = override || paramsInBody;
  const urlQuery: ParamList = inBody ? [] : [...query];
  const body: ParamList = inBody ? [...query, ...form] : [...form];
  const headers: Record<string, string> = { 'accept-encoding': 'gzip' };

  if (req.level === 'key') {
    urlQuery.push(['oauth_consumer_key', ctx.consumer.key]);
  } else {
    const token = req.level === 'protected' ? ctx.token : null;
    headers.authorization = sign({
      method: transportMethod,
      url: base,
      query: urlQuery,
      form: body,
      consumer: ctx.consumer,
      token,
      timestamp,
      ...(req.oauth ? { oauth: req.oauth } : {}),
    }).header;
  }
  if (override && method !== 'POST') headers['x-http-method-override'] = method;
  if (req.ifMatch !== undefined) headers['if-match'] = req.ifMatch;
  if (cachedEtag && method === 'GET') headers['if-none-match'] = cachedEtag;

  const hasBody =
    transportMethod !== 'GET' && (body.length > 0 || transportMethod === 'POST' || transportMethod === 'PUT');
  if (hasBody) headers['content-type'] = 'application/x-www-form-urlencoded';
  const qs = encodeParams(urlQuery);
  return {
    method: transportMethod,
    url: base + (qs ? `?${qs}` : ''),
    headers,
    ...(hasBody ? { body: encodeParams(body) } : {}),
  };
}

/** An absolute URL (a ref or link) as is, or a path under the profile's base URL; no fragment. */
export function resolveUrl(baseUrl: string, url: string): string {
  const absolute = /^https?:\/\//i.test(url)
    ? url
    : baseUrl.replace(/\/+$/, '') + (url.startsWith('/') ? url : `/${url}`);
  const hash = absolute.indexOf('#');
  return hash < 0 ? absolute : absolute.slice(0, hash);
}

/**
 * The ETag cache key of a GET: the normalised URL with its non-OAuth parameters sorted, so the
 * same resource maps to one entry however it was signed or its parameters ordered.
 */
export function cacheKeyOf(base: string, query: ParamList): string {
  const params = query
    .filter(([k]) => !k.startsWith('oauth_'))
    .map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const qs = encodeParams(params);
  return base + (qs ? `?${qs}` : '');
}

export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['content-type', 'etag', 'last-modified']) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
