import {
  isOperationName,
  needsSignIn,
  parseInput,
  type OperationName,
  type OperationResult,
} from '../../../shared/ipc.ts';
import type { Result } from '../../../shared/models.ts';
import { toAppError, type ErrorLog } from '../errors.ts';
import type { Operations } from './operations.ts';

/**
 * The one gate every call of the app API passes, whoever the host: the operation's name, its input
 * (validated here and nowhere else, problems in words), the sign-in it needs, then the handler.
 * Never throws: every outcome is a Result, failures kept by core/errors.ts's one policy.
 */
export interface DispatchParts {
  operations: Operations;
  /** True when a subscriber is signed in to the active profile (after following any change). */
  signedIn(): boolean;
  log: ErrorLog;
}

export const NOT_SIGNED_IN = 'You are not signed in: sign in to see your queues, ratings and history.';

export function createDispatch(parts: DispatchParts) {
  return async function dispatch<N extends OperationName>(
    name: N,
    input: unknown,
  ): Promise<Result<OperationResult<N>>> {
    try {
      if (!isOperationName(name))
        return {
          ok: false,
          error: { kind: 'invalid', status: 404, message: `Unknown operation: ${String(name).slice(0, 100)}` },
        };
      const parsed = parseInput(name, input);
      if (!parsed.ok) return { ok: false, error: { kind: 'invalid', status: 400, message: parsed.message } };
      if (needsSignIn(name) && !parts.signedIn()) return { ok: false, error: { kind: 'auth', message: NOT_SIGNED_IN } };
      const run = parts.operations[name] as (input: unknown) => Promise<OperationResult<N>>;
      return { ok: true, value: await run(parsed.value) };
    } catch (error) {
      return { ok: false, error: toAppError(error, parts.log, name) };
    }
  };
}
