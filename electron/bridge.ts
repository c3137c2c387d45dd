import { createEventHub, deriveApi, type Invoke, type OperationName, type Subscribe } from '../shared/ipc.ts';
import type { AppError, Result } from '../shared/models.ts';
import { toAppError } from './core/errors.ts';

/**
 * The IPC plumbing, derived from the operation table and free of Electron so it is tested in
 * plain Node: the preload builds `window.marquee` with `createBridge`, main (and the web host)
 * answer with `createIpcServer`.
 */

export type { Invoke, Subscribe };

/** `window.marquee`, derived from the operation table (shared/ipc.ts). */
export const createBridge = deriveApi;

export { createEventHub };

/** The core's dispatch: checks the name and validates the input (the one place), then runs the operation. */
export type Dispatch = (name: OperationName, input: unknown) => Promise<Result<unknown>>;

export interface IpcServer<S> {
  /** Answers one call from `sender`; always resolves to a Result, never throws. */
  handle(sender: S, name: unknown, input: unknown): Promise<Result<unknown>>;
}

/**
 * Checks the sender before anything else, then hands the call to the core's dispatch, which checks
 * the operation name and validates its input; a thrown error comes back as a value (core/errors.ts's
 * one policy), because Electron keeps only the message of an error thrown across IPC.
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
      if (!trusted)
        return failure({
          kind: 'invalid',
          status: 403,
          message: 'Refused: the call did not come from the Marquee window.',
        });
      try {
        return await dispatch(name as OperationName, input);
      } catch (error) {
        return failure(toAppError(error, undefined, 'IPC'));
      }
    },
  };
}

function failure(error: AppError): Result<never> {
  return { ok: false, error };
}
