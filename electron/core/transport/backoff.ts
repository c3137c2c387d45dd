/** Exponential backoff with full jitter, and an abortable sleep. */

export interface BackoffOptions {
  /** Delay scale for the first retry, ms; default 250. */
  baseMs?: number;
  /** Ceiling for any one delay, ms; default 5000. */
  maxMs?: number;
  /** [0, 1) source; default Math.random. */
  random?: () => number;
}

/**
 * The delay before retry number `retry` (1 = the first retry): uniformly random in
 * [base·2^(retry-1) / 2, base·2^(retry-1)], capped at maxMs ("equal jitter": never zero, never
 * in lockstep with other clients).
 */
export function backoffDelay(retry: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 250;
  const max = options.maxMs ?? 5000;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or rejects with the signal's abort reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** An AbortError for a signal: its reason when that is an AbortError, else a fresh one. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
