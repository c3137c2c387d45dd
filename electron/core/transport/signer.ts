import { createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { Credentials } from '../types.ts';

/**
 * OAuth 1.0a (RFC 5849) HMAC-SHA1 signing for the service (CONTRACT.md §5), on top of the
 * `oauth-1.0a` library, whose quirks are kept out of the way here:
 *
 * - `authorize()` merges the request's query and body parameters into the object it returns (and
 *   into `request.data`), and parses a URL's query itself without the `+`-is-space rule. So the
 *   library is only ever given a bare base string URI (no query) and a fresh copy of our
 *   parameters; every query and form parameter is signed exactly once, and what we return holds
 *   only the OAuth protocol parameters.
 * - `getBaseUrl()` only cuts at `?`: the URI is normalised here first (lower-case scheme and host,
 *   no default port, no fragment).
 * - Its nonce comes from `Math.random` and its timestamp from the wall clock: both are ours
 *   (`crypto` nonces; the caller's clock, corrected for skew by the transport).
 * - Its percent-encoding is `encodeURIComponent` plus `!*'()`, i.e. RFC 3986 with upper-case hex,
 *   but it throws on a lone surrogate: names and values are made well-formed UTF-16 first (a lone
 *   surrogate becomes U+FFFD, as the service decodes it), and must be sent the same way
 *   ({@link wellFormed}, {@link encodeParams}).
 */

/** Ordered name/value pairs; a name may repeat. */
export type ParamList = Array<[string, string]>;

export const SIGNATURE_METHOD = 'HMAC-SHA1';

/** RFC 5849 §3.6 percent-encoding: UTF-8, everything but ALPHA DIGIT - . _ ~ escaped, upper-case hex. */
export function percentEncode(value: string): string {
  return encoder.percentEncode(wellFormed(value));
}

/** A string with any lone surrogate replaced by U+FFFD (what its UTF-8 bytes decode back to). */
export function wellFormed(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

/** `a=b&c=d` with RFC 3986 encoding (spaces as %20): for query strings and form bodies. */
export function encodeParams(params: ParamList): string {
  return params.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
}

/**
 * The base string URI (RFC 5849 §3.4.1.2) of an absolute URL: lower-case scheme and host, the
 * port only when not the scheme's default, the path as it goes on the wire, no query or fragment.
 */
export function normalizeUrl(url: string): string {
  const u = new URL(url); // WHATWG URL lower-cases scheme and host and drops a default port
  return `${u.protocol}//${u.host}${u.pathname || '/'}`;
}

/** An absolute URL's query parameters, form-decoded (`+` is a space), in order. */
export function queryParams(url: string): ParamList {
  return [...new URL(url).searchParams];
}

/** HMAC-SHA1 of a base string with an already-encoded signing key, base64. */
export function hmacSha1(baseString: string, key: string): string {
  return createHmac('sha1', key).update(baseString, 'utf8').digest('base64');
}

/** A random nonce: 128 bits from `crypto`, hex. */
export function randomNonce(): string {
  return randomBytes(16).toString('hex');
}

const encoder = new OAuth({
  consumer: { key: '', secret: '' },
  signature_method: SIGNATURE_METHOD,
  hash_function: hmacSha1,
});

type LibData = Record<string, string | string[]>;

/** Parameters as the library wants them: a null-prototype object, a repeated name as an array. */
function toLibData(params: ParamList): LibData {
  const data = Object.create(null) as LibData;
  for (const [rawK, rawV] of params) {
    const k = wellFormed(rawK);
    const v = wellFormed(rawV);
    const seen = data[k];
    if (seen === undefined) data[k] = v;
    else if (Array.isArray(seen)) seen.push(v);
    else data[k] = [seen, v];
  }
  return data;
}

function library(consumer: Credentials): OAuth {
  return new OAuth({
    consumer: { key: consumer.key, secret: consumer.secret },
    signature_method: SIGNATURE_METHOD,
    hash_function: hmacSha1,
  });
}

/**
 * The signature base string (RFC 5849 §3.4.1.1) for `method`, an absolute `url` (its own query is
 * included, form-decoded) and `params`: further query, form-body and `oauth_*` parameters
 * (`oauth_signature` is left out).
 */
export function signatureBaseString(method: string, url: string, params: ParamList): string {
  const all = [...queryParams(url), ...params].filter(([k]) => k !== 'oauth_signature');
  // getBaseString merges the request data into the oauth data object: give it copies only.
  const request = { method: method.toUpperCase(), url: normalizeUrl(url), data: toLibData(all) };
  return encoder.getBaseString(request, Object.create(null) as OAuth.Data);
}

export interface SignInput {
  /** The transport method (POST for an override). */
  method: string;
  /** Absolute URL; a query in it is signed too. */
  url: string;
  /** Query parameters beyond those in `url`. */
  query?: ParamList;
  /** application/x-www-form-urlencoded body parameters. */
  form?: ParamList;
  consumer: Credentials;
  token?: Credentials | null;
  /** Extra protocol parameters to sign and send with the rest, e.g. oauth_callback, oauth_verifier. */
  oauth?: Record<string, string>;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default {@link randomNonce}. */
  nonce?: string;
  /** oauth_version; default '1.0'; null leaves it out. */
  version?: string | null;
}

export interface Signed {
  /** The protocol parameters, oauth_signature included (nothing from the query or form). */
  oauth: Record<string, string>;
  /** `OAuth oauth_consumer_key="…", …` for the Authorization header. */
  header: string;
  baseString: string;
}

/** Signs one request with HMAC-SHA1: consumer, plus the token when given. */
export function sign(input: SignInput): Signed {
  const lib = library(input.consumer);
  const oauth: Record<string, string> = {
    oauth_consumer_key: input.consumer.key,
    oauth_nonce: input.nonce ?? randomNonce(),
    oauth_signature_method: SIGNATURE_METHOD,
    oauth_timestamp: String(input.timestamp ?? Math.floor(Date.now() / 1000)),
  };
  const version = input.version === undefined ? '1.0' : input.version;
  if (version !== null) oauth.oauth_version = version;
  if (input.token) oauth.oauth_token = input.token.key;
  Object.assign(oauth, input.oauth ?? {});

  const params: ParamList = [...(input.query ?? []), ...(input.form ?? []), ...Object.entries(oauth)];
  const baseString = signatureBaseString(input.method, input.url, params);
  const signingKey = lib.getSigningKey(input.token?.secret ?? '');
  oauth.oauth_signature = hmacSha1(baseString, signingKey);
  const header = lib.toHeader(oauth as unknown as OAuth.Authorization).Authorization;
  return { oauth, header, baseString };
}
