import type { AppError, ErrorKind } from '../../../shared/models.ts';
import { appErrorOf, parseStatusBody } from '../transport/index.ts';
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
    extra: {
      kind?: ErrorKind | undefined;
      status?: number | undefined;
      subCode?: number | undefined;
      retryAfter?: number | undefined;
      cause?: unknown;
    } = {},
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
 * A failed token call as an AuthError, judged by the transport's one map (`appErrorOf`): the status
 * body's message, kind 'auth' → 'rejected', any other kind (quota, server, invalid…) → 'service'.
 */
export function authErrorFromResponse(
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  now: () => number = Date.now,
): AuthError {
  const parsed = parseStatusBody(body);
  const error = appErrorOf({ status, headers, message: parsed.message, subCode: parsed.subCode }, now);
  const extra = { kind: error.kind, status, subCode: error.subCode, retryAfter: error.retryAfter };
  if (error.kind === 'auth')
    return new AuthError('rejected', `The service refused the sign-in: ${error.message}.`, extra);
  if (error.kind === 'quota')
    return new AuthError('service', `The service is over its request quota for this app: ${error.message}.`, extra);
  return new AuthError('service', `Sign-in failed: ${error.message}.`, extra);
}
