import type { OperationInput, OperationName, OperationResult } from '../../shared/ipc.ts';
import type { AppError } from '../../shared/models.ts';
import { api } from '../api.ts';

/** A failed operation as a thrown value, so TanStack Query sees it as the query's error. */
export class OperationError extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

/** Calls one operation of window.marquee: its value, or an OperationError carrying the AppError. */
export async function call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationResult<N>> {
  const result = await (
    api[name] as (input: OperationInput<N>) => Promise<{ ok: true; value: unknown } | { ok: false; error: AppError }>
  )(input);
  if (!result.ok) throw new OperationError(result.error);
  return result.value as OperationResult<N>;
}

/** The AppError behind a query's or mutation's error (anything else reads as a server fault). */
export function appErrorOf(error: unknown): AppError {
  if (error instanceof OperationError) return error.error;
  return { kind: 'server', message: error instanceof Error ? error.message : 'Something went wrong.' };
}
