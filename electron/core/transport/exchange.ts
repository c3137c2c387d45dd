import { abortReason } from './backoff.ts';
import { describeNetworkError } from './errors.ts';
import type { Answer, Wire } from './wire.ts';
import { ServiceError } from '../types.ts';

/** One HTTP exchange of the transport (transport.ts): the request on the wire, the whole answer read. */

/** No answer within the timeout: reported as 'offline' (a ServiceError caused by it), never retried. */
export class Timeout extends Error {}

/** A ServiceError 'offline' because no answer came in time (rather than no connection). */
export function isTimeout(error: unknown): boolean {
  return error instanceof ServiceError && error.cause instanceof Timeout;
}
/** The connection failed (refused, reset, DNS): an idempotent request is retried. */
export class NetworkFailure extends Error {}

/**
 * Sends `wire` and reads the answer, body included, under the timeout and the caller's signal:
 * an abort rejects with the AbortError, a timeout with Timeout, anything else with NetworkFailure.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  wire: Wire,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Answer> {
  if (signal?.aborted) throw abortReason(signal);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetchImpl(wire.url, {
      method: wire.method,
      headers: wire.headers,
      ...(wire.body !== undefined ? { body: wire.body } : {}),
      signal: controller.signal,
      redirect: 'manual',
    });
    const body = await res.text(); // undici has gunzipped it (Content-Encoding: gzip)
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { status: res.status, headers, body };
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (timedOut) throw new Timeout(`No answer from the service within ${Math.round(timeoutMs / 1000)} s`);
    throw new NetworkFailure(describeNetworkError(error));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
