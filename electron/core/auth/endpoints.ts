import { isTimeout } from '../transport/index.ts';
import { ServiceError, type Credentials, type ServiceResponse, type Transport } from '../types.ts';
import { AuthError, authErrorFromResponse } from './errors.ts';
import type { OAuthTokens, RequestTokenResult, SignInTarget } from './types.ts';

/**
 * The token endpoints of CONTRACT.md §5 as a sign-in (sign-in.ts) calls them, through the
 * transport (its signing, and its clock, corrected from /oauth/clock/time when the service says
 * our timestamp is off), and the sign-in page the request token leads to.
 */

/** How a sign-in attempt calls the service: the transport, the attempt's cancellation, the timeout per call. */
export interface Http {
  transport: Transport;
  signal: AbortSignal;
  requestTimeoutMs: number;
}

/** POST /oauth/request_token, consumer-signed, with `oauth_callback` (a URL or 'oob'). */
export async function requestToken(target: SignInTarget, callback: string, http: Http): Promise<RequestTokenResult> {
  const fields = await tokenCall(target, '/oauth/request_token', null, { oauth_callback: callback }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const loginUrl = fields.get('login_url');
  if (!token || !secret || !loginUrl)
    throw new AuthError('bad_response', 'The service answered the request-token call without a token or sign-in URL.');
  // OAuth 1.0a: the service must confirm it registered our callback, or it would not call it back.
  if (fields.get('oauth_callback_confirmed') !== 'true')
    throw new AuthError('bad_response', 'The service did not confirm the sign-in callback (not OAuth 1.0a).');
  return { token, secret, loginUrl, applicationName: fields.get('application_name') ?? '' };
}

/** POST /oauth/access_token, signed with the request token, with `oauth_verifier`. */
export async function accessToken(
  target: SignInTarget,
  requestToken: Credentials,
  verifier: string,
  http: Http,
): Promise<OAuthTokens> {
  const fields = await tokenCall(target, '/oauth/access_token', requestToken, { oauth_verifier: verifier }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const userId = fields.get('user_id');
  if (!token || !secret || !userId)
    throw new AuthError('bad_response', 'The service answered the access-token call without a token or user id.');
  return { token, secret, userId };
}

/**
 * One signed POST for the target profile (with the request token, once there is one), its protocol
 * parameters in the Authorization header; the answer parsed as a form, a refusal as an AuthError.
 */
async function tokenCall(
  target: SignInTarget,
  path: string,
  token: Credentials | null,
  oauth: Record<string, string>,
  http: Http,
): Promise<URLSearchParams> {
  const signAs = {
    baseUrl: target.baseUrl,
    consumer: { key: target.consumerKey, secret: target.consumerSecret },
    token,
  };
  let res: ServiceResponse;
  try {
    res = await http.transport.request({
      method: 'POST',
      url: path,
      level: token ? 'protected' : 'signed',
      signAs,
      oauth,
      answerRefusals: true,
      signal: http.signal,
      timeoutMs: http.requestTimeoutMs,
    });
  } catch (error) {
    throw unanswered(error, target.baseUrl, http.signal);
  }
  if (res.status === 200) return parseForm(res.body);
  throw authErrorFromResponse(res.status, res.body, res.headers);
}

/** A token call that got no answer to read, as an AuthError: cancelled, unreachable, or what the transport said. */
function unanswered(error: unknown, baseUrl: string, signal: AbortSignal): unknown {
  if (signal.aborted) return new AuthError('cancelled', 'Sign-in was cancelled');
  if (!(error instanceof ServiceError)) return error;
  const { kind, status, subCode, retryAfter } = error.appError;
  if (kind === 'offline') {
    const message = isTimeout(error)
      ? `The service at ${originOf(baseUrl)} did not answer in time.`
      : `Could not reach the service at ${originOf(baseUrl)}.`;
    return new AuthError('network', message, { cause: error });
  }
  return new AuthError(kind === 'auth' ? 'rejected' : 'service', `Sign-in failed: ${error.message}.`, {
    kind,
    status,
    subCode,
    retryAfter,
    cause: error,
  });
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
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.origin !== new URL(target.baseUrl).origin ||
    url.username ||
    url.password
  ) {
    throw new AuthError(
      'bad_response',
      `The service sent a sign-in URL outside ${originOf(target.baseUrl)}; check the profile's base URL.`,
    );
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
