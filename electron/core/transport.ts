import type { AppError } from '../../shared/models.ts';
import { abortReason, backoffDelay, sleep as defaultSleep } from './backoff.ts';
import type { EtagCache } from './etag-cache.ts';
import { encodeParams, normalizeUrl, queryParams, sign, wellFormed, type ParamList } from './signer.ts';
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
const QUOTA_MESSAGE = /over queries per (second|day) limit|quota/i;
const TIMESTAMP_MESSAGE = /timestamp is invalid/i;
const MISSING_TOKEN_MESSAGE = /missing required access token/i;

interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

/**
 * The request as it goes on the wire. `override`: transport POST with X-HTTP-Method-Override
 * naming the method; `paramsInBody`: query parameters travel in the form body (always with an
 * override). The key level puts `oauth_consumer_key` alone in the query; the signed levels sign
 * the transport method, URL, query and body and send the OAuth parameters in the header.
 */
function buildWire(
  ctx: SigningContext,
  req: ServiceRequest,
  method: string,
  base: string,
  query: ParamList,
  form: ParamList,
  override: boolean,
  paramsInBody: boolean,
  cachedEtag: string | undefined,
  timestamp: number,
): Wire {
  const transportMethod = override ? 'POST' : method;
  const inBody = override || paramsInBody;
  const urlQuery: ParamList = inBody ? [] : [...query];
  const body: ParamList = inBody ? [...query, ...form] : [...form];
  const headers: Record<string, string> = { 'accept-encoding': 'gzip' };

  if (req.level === 'key') {
    urlQuery.push(['oauth_consumer_key', ctx.consumer.key]);
  } else {
    const token = req.level === 'protected' ? ctx.token : null;
    headers.authorization = sign({ method: transportMethod, url: base, query: urlQuery, form: body, consumer: ctx.consumer, token, timestamp }).header;
  }
  if (override && method !== 'POST') headers['x-http-method-override'] = method;
  if (req.ifMatch !== undefined) headers['if-match'] = req.ifMatch;
  if (cachedEtag && method === 'GET') headers['if-none-match'] = cachedEtag;

  const hasBody = transportMethod !== 'GET' && (body.length > 0 || transportMethod === 'POST' || transportMethod === 'PUT');
  if (hasBody) headers['content-type'] = 'application/x-www-form-urlencoded';
  const qs = encodeParams(urlQuery);
  return {
    method: transportMethod,
    url: base + (qs ? `?${qs}` : ''),
    headers,
    ...(hasBody ? { body: encodeParams(body) } : {}),
  };
}

/** An absolute URL (a ref or link) as is, or a path under the profile's base URL; no fragment. */
export function resolveUrl(baseUrl: string, url: string): string {
  const absolute = /^https?:\/\//i.test(url) ? url : baseUrl.replace(/\/+$/, '') + (url.startsWith('/') ? url : `/${url}`);
  const hash = absolute.indexOf('#');
  return hash < 0 ? absolute : absolute.slice(0, hash);
}

/**
 * The ETag cache key of a GET: the normalised URL with its non-OAuth parameters sorted, so the
 * same resource maps to one entry however it was signed or its parameters ordered.
 */
export function cacheKeyOf(base: string, query: ParamList): string {
  const params = query
    .filter(([k]) => !k.startsWith('oauth_'))
    .map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const qs = encodeParams(params);
  return base + (qs ? `?${qs}` : '');
}

function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['content-type', 'etag', 'last-modified']) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

export interface StatusBody {
  code?: number;
  subCode?: number;
  message?: string;
}

/** `<status><status_code>…</status_code><sub_code>…</sub_code><message>…</message>` (or its JSON form). */
export function parseStatusBody(body: string): StatusBody {
  const out: StatusBody = {};
  const xml = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1];
  let code = xml('status_code');
  let sub = xml('sub_code');
  let message = xml('message');
  if (code === undefined && body.trimStart().startsWith('{')) {
    try {
      const json = JSON.parse(body) as { status?: Record<string, unknown> };
      const s = json.status ?? (json as Record<string, unknown>);
      code = s.status_code !== undefined ? String(s.status_code) : undefined;
      sub = s.sub_code !== undefined ? String(s.sub_code) : undefined;
      message = typeof s.message === 'string' ? s.message : undefined;
    } catch {
      // not JSON after all
    }
  }
  if (code !== undefined && /^\s*\d+\s*$/.test(code)) out.code = Number(code);
  if (sub !== undefined && /^\s*\d+\s*$/.test(sub)) out.subCode = Number(sub);
  if (message !== undefined) out.message = decodeEntities(message.trim());
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const lower = ref.toLowerCase();
    if (named[lower]) return named[lower];
    const cp = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

/**
 * A failed answer as an AppError: 401 → auth, 403 → quota (with retryAfter) or auth, 404 →
 * not_found, 412 → conflict, 5xx → server, 400 "Missing Required Access Token" → auth, any
 * other 4xx (400, 405, 413, 414, 422, …) → invalid.
 */
function errorOf(answer: Answer, now: () => number, parsed: StatusBody = parseStatusBody(answer.body)): ServiceError {
  const { status } = answer;
  const message = parsed.message || `HTTP ${status}`;
  const base: AppError = { kind: 'invalid', message, status, ...(parsed.subCode !== undefined ? { subCode: parsed.subCode } : {}) };
  if (status === 401) return new ServiceError({ ...base, kind: 'auth' });
  if (status === 403) {
    const retryAfter = parseRetryAfter(answer.headers['retry-after'], now);
    if (QUOTA_MESSAGE.test(message)) return new ServiceError({ ...base, kind: 'quota', ...(retryAfter !== undefined ? { retryAfter } : {}) });
    return new ServiceError({ ...base, kind: 'auth' });
  }
  if (status === 404) return new ServiceError({ ...base, kind: 'not_found' });
  if (status === 412) return new ServiceError({ ...base, kind: 'conflict' });
  if (status >= 500) return new ServiceError({ ...base, kind: 'server' });
  if (status === 400 && MISSING_TOKEN_MESSAGE.test(message)) return new ServiceError({ ...base, kind: 'auth' });
  return new ServiceError(base);
}

/** Retry-After as seconds: delta-seconds or an HTTP-date. */
export function parseRetryAfter(value: string | undefined, now: () => number = Date.now): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now()) / 1000));
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    return error.message;
  }
  return String(error);
}
