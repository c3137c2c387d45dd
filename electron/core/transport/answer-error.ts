import type { AppError, ErrorKind } from '../../../shared/models.ts';
import { parseRetryAfter } from './retry-after.ts';

/**
 * The one map from a service's refusal to the app's error: sign-in's token calls (auth/) and every
 * other call (transport.ts) judge a 403 and read Retry-After the same way.
 */

/** A refusal as the map reads it: the status, headers (lower-case names) and the status body's fields. */
export interface Refusal {
  status: number;
  headers: Readonly<Record<string, string>>;
  message?: string | undefined;
  subCode?: number | undefined;
}

const QUOTA_MESSAGE = /over queries per (second|day) limit|quota/i;
const MISSING_TOKEN_MESSAGE = /missing required access token/i;

/**
 * 401 → auth; 403 → quota when it names a quota or says when to come back (Retry-After), else auth
 * (a user mismatch, a bad feed token); 429 → quota; 404 → not_found; 412 → conflict; 5xx → server;
 * 400 "Missing Required Access Token" → auth; any other 4xx → invalid.
 */
export function errorKindOf(status: number, message: string, hasRetryAfter: boolean): ErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return QUOTA_MESSAGE.test(message) || hasRetryAfter ? 'quota' : 'auth';
  if (status === 429) return 'quota';
  if (status === 404) return 'not_found';
  if (status === 412) return 'conflict';
  if (status >= 500) return 'server';
  if (status === 400 && MISSING_TOKEN_MESSAGE.test(message)) return 'auth';
  return 'invalid';
}

/**
 * The refusal as an AppError: its kind, the service's message (else "HTTP <status>"), sub_code,
 * and Retry-After in seconds when it can be read (a 403 that has one is a quota either way).
 */
export function appErrorOf(refusal: Refusal, now: () => number = Date.now): AppError {
  const { status } = refusal;
  const message = refusal.message || `HTTP ${status}`;
  const header = refusal.headers['retry-after'];
  const retryAfter = parseRetryAfter(header, now);
  const error: AppError = { kind: errorKindOf(status, message, header !== undefined), message, status };
  if (refusal.subCode !== undefined) error.subCode = refusal.subCode;
  if (retryAfter !== undefined) error.retryAfter = retryAfter;
  return error;
}
