import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../electron/core/transport/index.ts';

/** Retry-After (RFC 9110 §10.2.3) as the seconds to wait, for sign-in and every other call alike. */

const now = () => Date.parse('2026-11-28T02:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds, spaces around them included', () => {
    expect(parseRetryAfter('1', now)).toBe(1);
    expect(parseRetryAfter(' 120 ', now)).toBe(120);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP-date as the seconds until it, rounded up', () => {
    expect(parseRetryAfter('Sat, 28 Nov 2026 02:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sat, 28 Nov 2026 02:00:00 GMT', () => Date.parse('2026-11-28T01:59:59.500Z'))).toBe(1);
  });

  it('reads the obsolete date forms HTTP still allows (RFC 850, asctime)', () => {
    expect(parseRetryAfter('Saturday, 28-Nov-26 02:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('Sat Nov 28 02:03:00 2026', () => Date.parse('2026-11-28T02:00:00'))).toBe(180);
  });

  it('reads a date already past as no wait, never a negative one', () => {
    expect(parseRetryAfter('Fri, 27 Nov 2026 23:00:00 GMT', now)).toBe(0);
  });

  it('gives undefined, never NaN, for garbage or no header', () => {
    for (const value of [undefined, '', 'soon', '1.5', '-3', '12abc', '1 2', 'Sat, 99 Nov 2026 99:00:00 GMT'])
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
  });
});
