import type { AppError, ErrorKind } from '../../../shared/models.ts';
import { parseStatusBody } from '../transport/index.ts';
import { ServiceError } from '../types.ts';

/** Why a sign-in failed (sign-in.ts), and a failed token call as one (endpoints.ts). */

export type AuthErrorCode =
  /** The browser did not come back (or no PIN was entered) in time. */
  | 'timeout'
  /** cancel(), a new sign-in, sign-out or the caller's AbortSignal. */
  | 'cancelled'
  /** The service refused (401/403): bad consumer credentials, an expired token, a wrong PIN. */
  | 'rejected'
  /** Another error status from the service (quota, 5xx, 400…). */
  | 'service'
  /** The service could not be reached. */
  | 'network'
  /** The service answered something that is not what CONTRACT.md §5 says. */
  | 'bad_response'
  /** openExternal failed. */
  | 'browser'
  /** completeWithPin with no PIN sign-in waiting. */
  | 'no_pending'
  /** No active profile to sign in to. */
  | 'no_profile';

/** A failed sign-in; a ServiceError, so its `appError` is what the renderer gets. */
export class AuthError extends ServiceError {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    extra: { kind?: ErrorKind; status?: number; subCode?: number; retryAfter?: number; cause?: unknown } = {},
  ) {
    const appError: AppError = { kind: extra.kind ?? KIND[code], message };
    if (extra.status !== undefined) appError.status = extra.status;
    if (extra.subCode !== undefined) appError.subCode = extra.subCode;
    if (extra.retryAfter !== undefined) appError.retryAfter = extra.retryAfter;
    super(appError);
    this.name = 'AuthError';
    if (extra.cause !== undefined) (this as { cause?: unknown }).cause = extra.cause;
  }

  get status(): number | undefined {
    return this.appError.status;
  }
}

const KIND: Record<AuthErrorCode, ErrorKind> = {
  timeout: 'auth',
  cancelled: 'auth',
  rejected: 'auth',
  service: 'server',
  network: 'offline',
  bad_response: 'server',
  browser: 'auth',
  no_pending: 'invalid',
  no_profile: 'invalid',
};

/**
 * A failed token call as an AuthError: the status body's message (`<status><message>` in XML, or
 * its JSON form), 401 → 'rejected' (kind 'auth'), a 403 with Retry-After → quota, any other 403 →
 * 'rejected', other statuses → 'service'.
 */
export function authErrorFromResponse(status: number, body: string, headers?: Headers): AuthError {
  const parsed = parseStatusBody(body);
  const retry = Number(headers?.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry >= 0 && headers?.has('retry-after') ? retry : undefined;
  const detail = parsed.message ?? `HTTP ${status}`;
  const base = { status, subCode: parsed.subCode, retryAfter };
  if (status === 401) return new AuthError('rejected', `The service refused the sign-in: ${detail}.`, base);
  if (retryAfter !== undefined && (status === 403 || status === 429 || status === 503)) {
    return new AuthError('service', `The service is over its request quota for this app: ${detail}.`, {
      ...base,
      kind: 'quota',
    });
  }
  if (status === 403) return new AuthError('rejected', `The service refused the sign-in: ${detail}.`, base);
  return new AuthError('service', `Sign-in failed: ${detail}.`, {
    ...base,
    kind: status >= 500 ? 'server' : 'invalid',
  });
}
