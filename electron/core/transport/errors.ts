import type { Answer } from './wire.ts';
import { ServiceError } from '../types.ts';
import { appErrorOf } from './answer-error.ts';

/**
 * A failed answer or exchange as the transport (transport.ts) reports it: the status body read,
 * then answer-error.ts's map to the AppError kind.
 */

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
      const s: Record<string, unknown> = json.status ?? json;
      code = scalarText(s.status_code);
      sub = scalarText(s.sub_code);
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

/** A JSON status field as text, when it is a number or a string. */
function scalarText(value: unknown): string | undefined {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
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

/** A failed answer as the ServiceError the transport throws: answer-error.ts's one map. */
export function errorOf(
  answer: Answer,
  now: () => number,
  parsed: StatusBody = parseStatusBody(answer.body),
): ServiceError {
  return new ServiceError(
    appErrorOf(
      { status: answer.status, headers: answer.headers, message: parsed.message, subCode: parsed.subCode },
      now,
    ),
  );
}

export function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    return error.message;
  }
  return String(error);
}
