/**
 * Retry-After (RFC 9110 §10.2.3) in whole seconds from now: delta-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2026 07:28:00 GMT", never negative once past). Undefined when absent or unreadable,
 * so a caller chooses its own wait rather than reading NaN.
 */
const HTTP_DATE_START = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i;

export function parseRetryAfter(value: string | undefined, now: () => number = Date.now): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // All three HTTP-date forms start with the weekday; Date.parse alone would take "1.5" or "-3" as a date.
  if (!HTTP_DATE_START.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now()) / 1000));
}
