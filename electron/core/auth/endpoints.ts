import { resolveUrl, sign } from '../transport/index.ts';
import type { Credentials } from '../types.ts';
import { AuthError, authErrorFromResponse } from './errors.ts';
import type { OAuthTokens, RequestTokenResult, SignInTarget } from './types.ts';

/**
 * The token endpoints of CONTRACT.md §5 as a sign-in (sign-in.ts) calls them: the request
 * token, the access token, the service's clock when it says our timestamp is off, and the
 * sign-in page the request token leads to.
 */

/** How a sign-in attempt calls the service: its fetch, cancellation, timeout and clock. */
export interface Http {
  fetch: typeof fetch;
  signal: AbortSignal;
  requestTimeoutMs: number;
  now: () => number;
  clock: () => number;
  setClock: (offset: number) => void;
}

/** POST /oauth/request_token, consumer-signed, with `oauth_callback` (a URL or 'oob'). */
export async function requestToken(target: SignInTarget, callback: string, http: Http): Promise<RequestTokenResult> {
  const fields = await tokenCall(target, '/oauth/request_token', null, { oauth_callback: callback }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const loginUrl = fields.get('login_url');
  if (!token || !secret || !loginUrl) throw new AuthError('bad_response', 'The service answered the request-token call without a token or sign-in URL.');
  // OAuth 1.0a: the service must confirm it registered our callback, or it would not call it back.
  if (fields.get('oauth_callback_confirmed') !== 'true') throw new AuthError('bad_response', 'The service did not confirm the sign-in callback (not OAuth 1.0a).');
  return { token, secret, loginUrl, applicationName: fields.get('application_name') ?? '' };
}

/** POST /oauth/access_token, signed with the request token, with `oauth_verifier`. */
export async function accessToken(target: SignInTarget, requestToken: Credentials, verifier: string, http: Http): Promise<OAuthTokens> {
  const fields = await tokenCall(target, '/oauth/access_token', requestToken, { oauth_verifier: verifier }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const userId = fields.get('user_id');
  if (!token || !secret || !userId) throw new AuthError('bad_response', 'The service answered the access-token call without a token or user id.');
  return { token, secret, userId };
}

/**
 * One signed POST with the protocol parameters in the Authorization header and no body; the
 * answer parsed as a form. A 401 for the timestamp corrects the clock from /oauth/clock/time and
 * retries once.
 */
async function tokenCall(target: SignInTarget, path: string, token: Credentials | null, oauth: Record<string, string>, http: Http): Promise<URLSearchParams> {
  const url = resolveUrl(target.baseUrl, path);
  const consumer = { key: target.consumerKey, secret: target.consumerSecret };
  for (let attempt = 0; ; attempt++) {
    const timestamp = Math.floor(http.now() / 1000) + http.clock();
    const { header } = sign({ method: 'POST', url, consumer, token, oauth, timestamp });
    const res = await send(http, url, { method: 'POST', headers: { authorization: header, accept: 'application/x-www-form-urlencoded, */*;q=0.5' } });
    if (res.status === 200) return parseForm(res.body);
    const error = authErrorFromResponse(res.status, res.body, res.headers);
    if (attempt === 0 && res.status === 401 && /timestamp/i.test(error.message) && (await syncClock(target, http))) continue;
    throw error;
  }
}

async function syncClock(target: SignInTarget, http: Http): Promise<boolean> {
  try {
    const url = new URL(resolveUrl(target.baseUrl, '/oauth/clock/time'));
    url.searchParams.set('oauth_consumer_key', target.consumerKey);
    const res = await send(http, url.toString(), { method: 'GET' });
    const m = /<time>\s*(\d+)\s*<\/time>|"time"\s*:\s*"?(\d+)/.exec(res.body);
    const server = Number(m?.[1] ?? m?.[2]);
    if (res.status !== 200 || !Number.isFinite(server) || server <= 0) return false;
    http.setClock(server - Math.floor(http.now() / 1000));
    return true;
  } catch {
    return false;
  }
}

async function send(http: Http, url: string, init: RequestInit): Promise<{ status: number; body: string; headers: Headers }> {
  try {
    const res = await http.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.any([http.signal, AbortSignal.timeout(http.requestTimeoutMs)]) });
    return { status: res.status, body: await res.text(), headers: res.headers };
  } catch (error) {
    if (http.signal.aborted) throw new AuthError('cancelled', 'Sign-in was cancelled');
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new AuthError('network', timedOut ? `The service at ${originOf(url)} did not answer in time.` : `Could not reach the service at ${originOf(url)}.`, { cause: error });
  }
}

/** A form-encoded answer (`+` is a space), as CONTRACT.md §5's token endpoints send. */
export function parseForm(body: string): URLSearchParams {
  return new URLSearchParams(body.trim());
}

/**
 * The page to open: the service's login_url, plus oauth_consumer_key and application_name. It must
 * be http(s) on the profile's own origin: never hand the system browser a file:, custom-scheme or
 * foreign URL from a response (the Electron shell refuses anything but this page too).
 */
export function signInPageUrl(target: SignInTarget, loginUrl: string, applicationName: string): string {
  let url: URL;
  try {
    url = new URL(loginUrl);
  } catch {
    throw new AuthError('bad_response', 'The service sent an invalid sign-in URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== new URL(target.baseUrl).origin || url.username || url.password) {
    throw new AuthError('bad_response', `The service sent a sign-in URL outside ${originOf(target.baseUrl)}; check the profile's base URL.`);
  }
  url.hash = '';
  url.searchParams.set('oauth_consumer_key', target.consumerKey);
  if (applicationName) url.searchParams.set('application_name', applicationName);
  return url.toString();
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

