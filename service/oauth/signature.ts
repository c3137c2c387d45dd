import { createHmac, timingSafeEqual } from 'node:crypto';
import { percentEncode } from './percent.ts';

/** The signature method the service accepts; the historical service offered only this one. */
export const HMAC_SHA1 = 'HMAC-SHA1';

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * The base string URI (RFC 5849 §3.4.1.2): lower-case scheme and host, the port only when it is
 * not the scheme's default, and the path as sent without its query. `host` is the Host header,
 * so reverse proxies and absolute-form request lines sign what the client saw.
 */
export function baseStringUri(scheme: string, host: string, path: string): string {
  const s = scheme.toLowerCase();
  const [name, rawPort] = splitHostPort(host.toLowerCase());
  const port = rawPort === DEFAULT_PORTS[s] ? '' : rawPort;
  let p = path.split('?')[0]!.split('#')[0]!;
  if (p === '') p = '/';
  return `${s}://${name}${port ? ':' + port : ''}${p}`;
}

/** Splits "host[:port]", minding IPv6 literals such as "[::1]:8080". */
function splitHostPort(host: string): [string, string] {
  const ipv6 = /^(\[[^\]]*\])(?::(\d*))?$/.exec(host);
  if (ipv6) return [ipv6[1]!, ipv6[2] ?? ''];
  const colon = host.lastIndexOf(':');
  return colon < 0 ? [host, ''] : [host.slice(0, colon), host.slice(colon + 1)];
}

/**
 * The normalized parameter string (RFC 5849 §3.4.1.3.2): names and values encoded, sorted by
 * name then value (byte order, which is code-unit order once encoded), `oauth_signature` left out,
 * duplicates kept.
 */
export function normalizeParameters(params: ReadonlyArray<readonly [string, string]>): string {
  const encoded: Array<[string, string]> = [];
  for (const [name, value] of params) {
    if (name !== 'oauth_signature') encoded.push([percentEncode(name), percentEncode(value)]);
  }
  encoded.sort(byNameThenValue);
  let out = '';
  for (let i = 0; i < encoded.length; i++) out += `${i === 0 ? '' : '&'}${encoded[i]![0]}=${encoded[i]![1]}`;
  return out;
}

function byNameThenValue(a: [string, string], b: [string, string]): number {
  return compare(a[0], b[0]) || compare(a[1], b[1]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The signature base string (RFC 5849 §3.4.1.1): METHOD&uri&params, each part encoded. */
export function signatureBaseString(
  method: string,
  uri: string,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  return `${percentEncode(method.toUpperCase())}&${percentEncode(uri)}&${percentEncode(normalizeParameters(params))}`;
}

/** HMAC-SHA1 (RFC 5849 §3.4.2) keyed with the encoded secrets; an absent token secret is "". */
export function hmacSha1(baseString: string, consumerSecret: string, tokenSecret = ''): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(baseString, 'utf8').digest('base64');
}

/** Constant-time comparison so the check does not leak how much of a forged signature matched. */
export function signaturesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
