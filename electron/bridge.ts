import { createEventHub, deriveApi, isOperationName, parseInput, type Invoke, type Subscribe } from '../shared/ipc.ts';
import type { AppError, Result } from '../shared/models.ts';

/**
 * The IPC plumbing, derived from the operation table and free of Electron so it is tested in
 * plain Node: the preload builds `window.marquee` with `createBridge`, main (and the web host)
 * answer with `createIpcServer`.
 */

export type { Invoke, Subscribe };

/** `window.marquee`, derived from the operation table (shared/ipc.ts). */
export const createBridge = deriveApi;

export { createEventHub };

/** Runs a validated operation (the core's dispatch). */
export type Dispatch = Invoke;

export interface IpcServer<S> {
  /** Answers one call from `sender`; always resolves to a Result, never throws. */
  handle(sender: S, name: unknown, input: unknown): Promise<Result<unknown>>;
}

/**
 * Checks, in this order, the sender, the operation name and its input (against the table's
 * schema) before `dispatch` runs; a thrown error comes back as a value, because Electron keeps
 * only the message of an error thrown across IPC.
 */
export function createIpcServer<S>(dispatch: Dispatch, isTrustedSender: (sender: S) => boolean): IpcServer<S> {
  return {
    async handle(sender, name, input) {
      let trusted = false;
      try {
        trusted = isTrustedSender(sender);
      } catch {
        trusted = false;
      }
      if (!trusted) return failure({ kind: 'invalid', status: 403, message: 'Refused: the call did not come from the Marquee window.' });
      if (!isOperationName(name)) return failure({ kind: 'invalid', status: 404, message: `Unknown operation: ${describe(name)}` });
      const parsed = parseInput(name, input);
      if (!parsed.ok) return failure({ kind: 'invalid', status: 400, message: `Invalid input for ${name}: ${parsed.message}` });
      try {
        return await dispatch(name, parsed.value);
      } catch (error) {
        return failure(toAppError(error));
      }
    },
  };
}

/** Any thrown value as an AppError: a ServiceError keeps its own; anything else is a server error. */
export function toAppError(error: unknown): AppError {
  const carried = (error as { appError?: unknown } | null)?.appError;
  if (isAppError(carried)) return carried;
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'server', message: message || 'Unexpected error' };
}

function isAppError(value: unknown): value is AppError {
  const v = value as Partial<AppError> | null;
  return typeof v === 'object' && v !== null && typeof v.kind === 'string' && typeof v.message === 'string';
}

function failure(error: AppError): Result<never> {
  return { ok: false, error };
}

function describe(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : typeof name;
}
