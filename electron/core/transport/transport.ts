import type { AppError } from '../../../shared/models.ts';
import { backoffDelay, sleep as defaultSleep } from './backoff.ts';
import type { CacheEntry, EtagCache } from './etag-cache.ts';
import { normalizeUrl, queryParams, type ParamList } from './signer.ts';
import { errorOf, parseStatusBody, type StatusBody } from './errors.ts';
import { parseRetryAfter } from './retry-after.ts';
import { exchange, NetworkFailure, Timeout } from './exchange.ts';
import { RequestPacer, type PacingOptions } from './pacing.ts';
import { buildWire, cacheKeyOf, keptHeaders, resolveUrl, type Answer, type Wire } from './wire.ts';
import {
  ServiceError,
  type ServiceRequest,
  type ServiceResponse,
  type SigningContext,
  type Transport,
} from '../types.ts';

/**
 * The HTTP transport under the client: every call signed at its level (CONTRACT.md §5), gzip,
 * ETag revalidation against a persistent cache, method override for long URLs and for proxies
 * that refuse PUT/DELETE, retries with backoff for idempotent requests, clock-skew correction,
 * pacing within the per-second quota (a per-second refusal is waited out and retried, as it had no
 * effect; only a per-day refusal surfaces), and error mapping to AppError kinds (thrown as ServiceError).
 *
 * Cancellation: when `req.signal` aborts (before or during a call, or while waiting to retry) the
 * promise rejects with an Error whose name is `AbortError` (the signal's reason when it is one, else
 * a DOMException) — not a ServiceError, so callers can tell "the user gave up" from a failure.
 * A timeout (`timeoutMs`, default 30 s, per attempt, body included) is a ServiceError 'offline'
 * and is not retried.
 *
 * The wire form of a request, URLs and cache keys are in wire.ts; one exchange in exchange.ts;
 * the pacing in pacing.ts; status bodies and the error mapping in errors.ts.
 */

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
  /** Told about every quota refusal that surfaces (per day; before the ServiceError is thrown). */
  onQuota?: (error: AppError) => void;
  /** The per-second pacing (default: 20 a second, learnt down on refusals); false: none. */
  pacing?: PacingOptions | false;
  /** Told when connectivity changes: false after a network failure/timeout, true on any HTTP answer. */
  onConnectivity?: (online: boolean) => void;
}

export interface HttpTransport extends Transport {
  /** Seconds added to the local clock for oauth_timestamp, learnt from /oauth/clock/time. */
  readonly clockOffset: number;
  /** oauth_timestamp now: the local clock corrected by the learnt skew (for requests signed outside it). */
  oauthTimestamp(): number;
  /** Learns the skew again after a "Timestamp Is Invalid" answer to a request signed outside it. */
  correctClock(ctx: SigningContext, signal?: AbortSignal): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_URL_BYTES = 4096;
const TIMESTAMP_MESSAGE = /timestamp is invalid/i;
const PER_SECOND_MESSAGE = /per second/i;
/** Per-second refusals one request waits out before it gives up and reports the quota. */
const MAX_PACED_RETRIES = 50;

export function createTransport(options: TransportOptions): HttpTransport {
  return new ServiceTransport(options);
}

/** What a request needs on every attempt: its signing context, parameters and cached copy. */
interface Prepared {
  req: ServiceRequest;
  ctx: SigningContext;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  base: string;
  query: ParamList;
  form: ParamList;
  idempotent: boolean;
  timeoutMs: number;
  cache: EtagCache | undefined;
  cacheKey: string;
  cached: CacheEntry | undefined;
  /** When the last attempt went out (the pacer weighs a refusal by it). */
  sentAt: number;
}

/** How the retry loop goes on after a refused answer. */
type Next = 'retry' | 'retry-free';

class ServiceTransport implements HttpTransport {
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #pacer: RequestPacer | null;
  #clockOffset = 0;
  #clockSync: Promise<void> | undefined;
  /** Set once a proxy refused PUT/DELETE and POST + override got through: go that way directly. */
  #overrideVerbs = false;
  #online: boolean | undefined;

  constructor(private readonly options: TransportOptions) {
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#pacer =
      options.pacing === false ? null : new RequestPacer({ now: this.#now, sleep: this.#sleep, ...options.pacing });
  }

  get clockOffset(): number {
    return this.#clockOffset;
  }

  oauthTimestamp(): number {
    return this.#timestamp();
  }

  correctClock(ctx: SigningContext, signal?: AbortSignal): Promise<void> {
    return this.#syncClock(ctx, signal, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  async request(req: ServiceRequest): Promise<ServiceResponse> {
    const p = await this.#prepare(req);
    const state = {
      useOverride: this.#overrideVerbs && isPutOrDelete(p.method),
      triedOverride: false,
      skewCorrected: false,
      pacedRetries: 0,
    };
    state.triedOverride = state.useOverride;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#attempt(p, state.useOverride, attempt);
      if (answer === 'retry') continue;
      const { status } = answer;
      if (status === 304 && p.cached) return fromCache(p.cached, answer);
      if (status < 400) return this.#success(p, answer, state.useOverride);

      const parsed = parseStatusBody(answer.body);
      const next = await this.#afterRefusal(p, answer, parsed, state, attempt);
      if (next === 'retry-free') attempt--; // not one of the failure attempts
      if (next) continue;
      if (req.answerRefusals) return { status, headers: answer.headers, body: answer.body, fromCache: false };
      throw await this.#failure(p, answer, parsed);
    }
  }

  /** Parameters, timeout and the cached copy, once per request. */
  async #prepare(req: ServiceRequest): Promise<Prepared> {
    const ctx = req.signAs ?? this.options.getContext();
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
    const cache = method === 'GET' && req.cache !== false ? this.#cache() : undefined;
    const cacheKey = cache ? cacheKeyOf(base, query) : '';
    const cached = cache && req.cache !== 'refresh' ? await cache.get(cacheKey).catch(() => undefined) : undefined;
    const idempotent = method === 'GET' || method === 'PUT' || method === 'DELETE';
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return { req, ctx, method, base, query, form, idempotent, timeoutMs, cache, cacheKey, cached, sentAt: 0 };
  }

  /** One paced exchange; a network failure of an idempotent request waits and answers 'retry'. */
  async #attempt(p: Prepared, override: boolean, attempt: number): Promise<Answer | 'retry'> {
    await this.#pacer?.take(p.req.signal);
    p.sentAt = this.#now();
    try {
      const answer = await exchange(this.#fetch, this.#wire(p, override), p.req.signal, p.timeoutMs);
      this.#setOnline(true);
      return answer;
    } catch (error) {
      if (error instanceof Timeout) {
        this.#setOnline(false);
        throw new ServiceError({ kind: 'offline', message: error.message }, { cause: error });
      }
      if (!(error instanceof NetworkFailure)) throw error; // AbortError
      this.#setOnline(false);
      if (p.idempotent && attempt < this.#maxAttempts) {
        await this.#sleep(this.#delay(attempt), p.req.signal);
        return 'retry';
      }
      throw new ServiceError({ kind: 'offline', message: `Cannot reach the service: ${error.message}` });
    }
  }

  /** The request as it goes out; too long for a URL, a GET goes as POST + override, anything else carries its query in the body. */
  #wire(p: Prepared, override: boolean): Wire {
    const build = (o: boolean, inBody: boolean) =>
      buildWire(p.ctx, p.req, p.method, p.base, p.query, p.form, o, inBody, p.cached?.etag, this.#timestamp());
    const wire = build(override, false);
    if (Buffer.byteLength(wire.url) <= (this.options.maxUrlBytes ?? MAX_URL_BYTES)) return wire;
    return build(override || p.method === 'GET', true);
  }

  async #success(p: Prepared, answer: Answer, override: boolean): Promise<ServiceResponse> {
    this.#pacer?.accepted();
    if (p.cache && answer.status === 200 && answer.headers.etag) {
      await p.cache
        .set(p.cacheKey, answer.headers.etag, answer.body, keptHeaders(answer.headers))
        .catch(() => undefined);
    }
    if (override && isPutOrDelete(p.method)) this.#overrideVerbs = true;
    return { status: answer.status, headers: answer.headers, body: answer.body, fromCache: false };
  }

  /**
   * Whether and how to try again after a refused answer: a skewed clock (once), a proxy refusing
   * PUT/DELETE (once, by override), the per-second quota (waited out: the request had no effect),
   * a 5xx of an idempotent request (with backoff). Undefined: it fails.
   */
  async #afterRefusal(
    p: Prepared,
    answer: Answer,
    parsed: StatusBody,
    state: { useOverride: boolean; triedOverride: boolean; skewCorrected: boolean; pacedRetries: number },
    attempt: number,
  ): Promise<Next | undefined> {
    const { status } = answer;
    if (p.req.level !== 'key' && !state.skewCorrected && isTimestampRefusal(status, parsed)) {
      state.skewCorrected = true;
      await this.#syncClock(p.ctx, p.req.signal, p.timeoutMs);
      return 'retry-free';
    }
    if ((status === 405 || status === 501) && isPutOrDelete(p.method) && !state.triedOverride) {
      state.triedOverride = true;
      state.useOverride = true;
      return 'retry-free';
    }
    if (
      this.#pacer &&
      status === 403 &&
      PER_SECOND_MESSAGE.test(parsed.message ?? '') &&
      state.pacedRetries < MAX_PACED_RETRIES
    ) {
      state.pacedRetries++;
      this.#pacer.refused(parseRetryAfter(answer.headers['retry-after'], this.#now) || 1, p.sentAt);
      return 'retry-free';
    }
    if (status >= 500 && p.idempotent && attempt < this.#maxAttempts) {
      await this.#sleep(this.#delay(attempt), p.req.signal);
      return 'retry';
    }
    return undefined;
  }

  async #failure(p: Prepared, answer: Answer, parsed: StatusBody): Promise<ServiceError> {
    if (answer.status === 404 && p.cache) await p.cache.delete(p.cacheKey).catch(() => undefined);
    const error = errorOf(answer, this.#now, parsed);
    if (error.appError.kind === 'quota') this.options.onQuota?.(error.appError);
    return error;
  }

  /** Reads /oauth/clock/time (consumer key only) and keeps the difference as the clock offset. */
  #syncClock(ctx: SigningContext, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    this.#clockSync ??= this.#readClock(ctx, signal, timeoutMs).finally(() => {
      this.#clockSync = undefined;
    });
    return this.#clockSync;
  }

  async #readClock(ctx: SigningContext, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    const url = new URL(resolveUrl(ctx.baseUrl, '/oauth/clock/time'));
    url.searchParams.set('oauth_consumer_key', ctx.consumer.key);
    let answer: Answer;
    try {
      answer = await exchange(
        this.#fetch,
        { method: 'GET', url: url.toString(), headers: { 'accept-encoding': 'gzip' } },
        signal,
        timeoutMs,
      );
    } catch (error) {
      if (error instanceof Timeout || error instanceof NetworkFailure) {
        this.#setOnline(false);
        throw new ServiceError(
          { kind: 'offline', message: `Cannot read the service's clock: ${error.message}` },
          { cause: error },
        );
      }
      throw error;
    }
    const m = /<time>\s*(\d+)\s*<\/time>/.exec(answer.body);
    if (answer.status !== 200 || !m) throw errorOf(answer, this.#now);
    this.#clockOffset = Number(m[1]) - Math.floor(this.#now() / 1000);
  }

  #setOnline(value: boolean): void {
    if (this.#online === value) return;
    this.#online = value;
    this.options.onConnectivity?.(value);
  }

  #cache(): EtagCache | undefined {
    return typeof this.options.cache === 'function' ? this.options.cache() : this.options.cache;
  }

  #timestamp(): number {
    return Math.floor(this.#now() / 1000) + this.#clockOffset;
  }

  get #maxAttempts(): number {
    return this.options.maxAttempts ?? 3;
  }

  #delay(attempt: number): number {
    return backoffDelay(attempt, {
      ...(this.options.backoffBaseMs !== undefined ? { baseMs: this.options.backoffBaseMs } : {}),
      ...(this.options.backoffMaxMs !== undefined ? { maxMs: this.options.backoffMaxMs } : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
    });
  }
}

/** The service refused a signature's oauth_timestamp: the local clock is off (learn the skew, sign again). */
export function isTimestampRefusal(status: number, parsed: StatusBody): boolean {
  return status === 401 && TIMESTAMP_MESSAGE.test(parsed.message ?? '');
}

function isPutOrDelete(method: string): boolean {
  return method === 'PUT' || method === 'DELETE';
}

/** A 304 answered from the cached copy. */
function fromCache(cached: CacheEntry, answer: Answer): ServiceResponse {
  return {
    status: 200,
    headers: { ...cached.headers, ...answer.headers, etag: answer.headers.etag ?? cached.etag },
    body: cached.body,
    fromCache: true,
  };
}
