import type { AppError } from '../../shared/models.ts';
import { ServiceError } from './types.ts';

/**
 * Any failure as the AppError the renderer gets as a value. Known failures keep what the caller
 * needs to act (kind, status, sub_code, retryAfter, message); anything unexpected becomes a 'server'
 * error with a generic message, and the original goes to the log (never to the renderer: a stack
 * or a file path is no help there and may leak details).
 */
export const UNEXPECTED_MESSAGE =
  'Something went wrong inside Marquee. Try again; if it keeps happening, restart the app.';

export type ErrorLog = (message: string, error: unknown) => void;

export function toAppError(error: unknown, log: ErrorLog = defaultLog, context = 'operation'): AppError {
  if (error instanceof ServiceError) return copy(error.appError); // SettingsError included: kind 'invalid'
  if (isAbort(error)) return { kind: 'offline', message: 'The request was cancelled.' };
  log(`Unexpected error in ${context}`, error);
  return { kind: 'server', message: UNEXPECTED_MESSAGE };
}

/** A fresh object with only the AppError fields: no prototype, no extra properties across IPC. */
function copy(e: AppError): AppError {
  const out: AppError = { kind: e.kind, message: e.message };
  if (e.status !== undefined) out.status = e.status;
  if (e.subCode !== undefined) out.subCode = e.subCode;
  if (e.retryAfter !== undefined) out.retryAfter = e.retryAfter;
  return out;
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

function defaultLog(message: string, error: unknown): void {
  console.error(`[marquee] ${message}:`, error);
}

/** The kind of a ServiceError (or undefined for anything else). */
export function kindOf(error: unknown): AppError['kind'] | undefined {
  return error instanceof ServiceError ? error.appError.kind : undefined;
}
