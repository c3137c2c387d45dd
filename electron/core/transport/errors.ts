import type { AppError } from '../../../shared/models.ts';
import type { Answer } from './wire.ts';
import { ServiceError } from '../types.ts';

/**
 * A failed answer or exchange as the transport (transport.ts) reports it: the status body,
 * Retry-After and the AppError kind.
 */

const QUOTA_MESSAGE = /over queries per (second|day) limit|quota/i;
const MISSING_TOKEN_MESSAGE = /missing required access token/i;

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
export function errorOf(
  answer: Answer,
  now: () => number,
  parsed: StatusBody = parseStatusBody(answer.body),
): ServiceError {
  const { status } = answer;
  const message = parsed.message || `HTTP ${status}`;
  const base: AppError = {
    kind: 'invalid',
    message,
    status,
    ...(parsed.subCode !== undefined ? { subCode: parsed.subCode } : {}),
  };
  if (status === 401) return new ServiceError({ ...base, kind: 'auth' });
  if (status === 403) {
    const retryAfter = parseRetryAfter(answer.headers['retry-after'], now);
    if (QUOTA_MESSAGE.test(message))
      return new ServiceError({ ...base, kind: 'quota', ...(retryAfter !== undefined ? { retryAfter } : {}) });
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

export function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    return error.message;
  }
  return String(error);
}
