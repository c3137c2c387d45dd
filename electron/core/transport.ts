import type { AppError } from '../../shared/models.ts';
import { abortReason, backoffDelay, sleep as defaultSleep } from './backoff.ts';
import type { EtagCache } from './etag-cache.ts';
import { normalizeUrl, queryParams, type ParamList } from './signer.ts';
import { describeNetworkError, errorOf, parseStatusBody } from './transport-errors.ts';
import { buildWire, cacheKeyOf, keptHeaders, resolveUrl, type Answer, type Wire } from './transport-wire.ts';
import { ServiceError, type ServiceRequest, type ServiceResponse, type SigningContext, type Transport } from './types.ts';

/**
 * The HTTP transport under the client: every call signed at its level (CONTRACT.md §5), gzip,
 * ETag revalidation against a persistent cache, method override for long URLs and for proxies
 * that refuse PUT/DELETE, retries with backoff for idempotent requests, clock-skew correction,
 * quota and error mapping to AppError kinds (thrown as ServiceError).
 *
 * Cancellation: when `req.signal` aborts (before or during a call, or while waiting to retry) the
 * promise rejects with an Error whose name is `AbortError` (the signal's reason when it is one, else
 * a DOMException) — not a ServiceError, so callers can tell "the user gave up" from a failure.
 * A timeout (`timeoutMs`, default 30 s, per attempt, body included) is a ServiceError 'offline'
 * and is not retried.
 *
 * The wire form of a request, URLs and cache keys are in transport-wire.ts; status bodies and the
 * error mapping in transport-errors.ts.
 */
export { cacheKeyOf } from './transport-wire.ts';

export interface TransportOptions {
  getContext: () => SigningContext;
  /**
   * The ETag cache of the signed-in user, or a function answering it (so the transport can follow
   * sign-in and sign-out); absent/undefined means no caching.
   */
  cache?: EtagCache | (() => EtagCache | undefined);
  fetch?: typeof fetch;
  /** Wall clock in milliseconds (default Date.now); oauth_timestamp = now()/1000 + the learnt skew. */
  now?: () => number;
  /** Waits between retries; default an abortable setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Attempts for an idempotent request (network error or 5xx); default 3. */
  maxAttempts?: number;
  /** First backoff delay scale, ms (default 250), and the cap (default 5000). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Default per-request timeout, ms; default 30 000. */
  timeoutMs?: number;
  /** Longest URL sent as is; a longer GET goes as POST + X-HTTP-Method-Override. Default 4096. */
  maxUrlBytes?: number;
  /** Told about every quota refusal (before the ServiceError is thrown). */
  onQuota?: (error: AppError) => void;
  /** Told when connectivity changes: false after a network failure/timeout, true on any HTTP answer. */
  onConnectivity?: (online: boolean) => void;
}

export interface HttpTransport extends Transport {
  /** Seconds added to the local clock for oauth_timestamp, learnt from /oauth/clock/time. */
  readonly clockOffset: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_URL_BYTES = 4096;
const TIMESTAMP_MESSAGE = /timestamp is invalid/i;

class Timeout extends Error {}
class NetworkFailure extends Error {}

export function createTransport(options: TransportOptions): HttpTransport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const maxAttempts = options.maxAttempts ?? 3;
  const maxUrlBytes = options.maxUrlBytes ?? MAX_URL_BYTES;
  let clockOffset = 0;
  let clockSync: Promise<void> | undefined;
  /** Set once a proxy refused PUT/DELETE and POST + override got through: go that way directly. */
  let overrideVerbs = false;
  let online: boolean | undefined;

  const setOnline = (value: boolean) => {
    if (online === value) return;
    online = value;
    options.onConnectivity?.(value);
  };

  const cacheOf = (): EtagCache | undefined => (typeof options.cache === 'function' ? options.cache() : options.cache);
  const timestamp = () => Math.floor(now() / 1000) + clockOffset;

  /** One HTTP exchange, body read included, under the timeout and the caller's signal. */
  async function exchange(wire: Wire, signal: AbortSignal | undefined, timeoutMs: number): Promise<Answer> {
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

  /** Reads /oauth/clock/time (consumer key only) and keeps the difference as the clock offset. */
  function syncClock(ctx: SigningContext, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    clockSync ??= (async () => {
      const url = new URL(resolveUrl(ctx.baseUrl, '/oauth/clock/time'));
      url.searchParams.set('oauth_consumer_key', ctx.consumer.key);
      let answer: Answer;
      try {
        answer = await exchange({ method: 'GET', url: url.toString(), headers: { 'accept-encoding': 'gzip' } }, signal, timeoutMs);
      } catch (error) {
        if (error instanceof Timeout || error instanceof NetworkFailure) {
          setOnline(false);
          throw new ServiceError({ kind: 'offline', message: `Cannot read the service's clock: ${error.message}` });
        }
        throw error;
      }
      const m = /<time>\s*(\d+)\s*<\/time>/.exec(answer.body);
      if (answer.status !== 200 || !m) throw errorOf(answer, now);
      clockOffset = Number(m[1]) - Math.floor(now() / 1000);
    })().finally(() => {
      clockSync = undefined;
    });
    return clockSync;
  }

  async function request(req: ServiceRequest): Promise<ServiceResponse> {
    const ctx = options.getContext();
    const method = req.method ?? 'GET';
    if (req.level === 'protected' && !ctx.token) {
      throw new ServiceError({ kind: 'auth', message: 'Not signed in: this request needs an access token' });
    }
    const absolute = resolveUrl(ctx.baseUrl, req.url);
    const base = normalizeUrl(absolute);
    const stripOAuth = (params: ParamList) => params.filter(([k]) => !k.startsWith('oauth_'));
    let query = stripOAuth([...queryParams(absolute), ...Object.entries(req.query ?? {})]);
    let form = stripOAuth(Object.entries(req.form ?? {}));
    if (method === 'GET') {
      query = [...query, ...form];
      form = [];
    }
    const idempotent = method === 'GET' || method === 'PUT' || method === 'DELETE';
    const timeoutMs = req.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    const cache = method === 'GET' && req.cache !== false ? cacheOf() : undefined;
    const cacheKey = cache ? cacheKeyOf(base, query) : '';
    const cached = cache ? await cache.get(cacheKey).catch(() => undefined) : undefined;

    const build = (override: boolean): Wire => {
      const wire = buildWire(ctx, req, method, base, query, form, override, false, cached?.etag, timestamp());
      if (Buffer.byteLength(wire.url) <= maxUrlBytes) return wire;
      // Too long for a URL: a GET goes as POST + override, anything else carries its query in the body.
      return buildWire(ctx, req, method, base, query, form, override || method === 'GET', true, cached?.etag, timestamp());
    };

    let useOverride = overrideVerbs && (method === 'PUT' || method === 'DELETE');
    let triedOverride = useOverride;
    let skewCorrected = false;
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await exchange(build(useOverride), req.signal, timeoutMs);
      } catch (error) {
        if (error instanceof Timeout) {
          setOnline(false);
          throw new ServiceError({ kind: 'offline', message: error.message });
        }
        if (!(error instanceof NetworkFailure)) throw error; // AbortError
        setOnline(false);
        if (idempotent && attempt < maxAttempts) {
          await sleep(delay(attempt), req.signal);
          continue;
        }
        throw new ServiceError({ kind: 'offline', message: `Cannot reach the service: ${error.message}` });
      }
      setOnline(true);
      const { status } = answer;

      if (status === 304 && cached) {
        return { status: 200, headers: { ...cached.headers, ...answer.headers, etag: answer.headers.etag ?? cached.etag }, body: cached.body, fromCache: true };
      }
      if (status < 400) {
        if (cache && status === 200 && answer.headers.etag) {
          await cache.set(cacheKey, answer.headers.etag, answer.body, keptHeaders(answer.headers)).catch(() => undefined);
        }
        if (useOverride && (method === 'PUT' || method === 'DELETE')) overrideVerbs = true;
        return { status, headers: answer.headers, body: answer.body, fromCache: false };
      }

      const parsed = parseStatusBody(answer.body);
      if (status === 401 && req.level !== 'key' && !skewCorrected && TIMESTAMP_MESSAGE.test(parsed.message ?? '')) {
        skewCorrected = true;
        await syncClock(ctx, req.signal, timeoutMs);
        attempt--; // the skew retry is not one of the failure attempts
        continue;
      }
      if ((status === 405 || status === 501) && (method === 'PUT' || method === 'DELETE') && !triedOverride) {
        triedOverride = true;
        useOverride = true;
        attempt--;
        continue;
      }
      if (status >= 500 && idempotent && attempt < maxAttempts) {
        await sleep(delay(attempt), req.signal);
        continue;
      }
      if (status === 404 && cache) await cache.delete(cacheKey).catch(() => undefined);
      const error = errorOf(answer, now, parsed);
      if (error.appError.kind === 'quota') options.onQuota?.(error.appError);
      throw error;
    }
  }

  const delay = (attempt: number) =>
    backoffDelay(attempt, {
      ...(options.backoffBaseMs !== undefined ? { baseMs: options.backoffBaseMs } : {}),
      ...(options.backoffMaxMs !== undefined ? { maxMs: options.backoffMaxMs } : {}),
      ...(options.random ? { random: options.random } : {}),
    });

  return {
    request,
    get clockOffset() {
      return clockOffset;
    },
  };
}
