import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentDecode, percentEncode } from '../../service/oauth/percent.ts';

/** RFC 3986 encoding spelled out: each UTF-8 byte (a lone surrogate is U+FFFD) kept if unreserved, else %XX. */
function encodeByBytes(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Lenient decoding spelled out: %XX (either case) is a byte, anything else stays; bytes read as UTF-8. */
function decodeByBytes(value: string): string {
  const input = Buffer.from(value, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const hex = input.toString('latin1', i + 1, i + 3);
    if (input[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(input[i]!);
  }
  return Buffer.from(out).toString('utf8');
}

const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('%', '+', '!', "'", '(', ')', '*', ' ', '~', '\ud800', '\udc00', 'é', '😀', 'A', '2', 'f'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
  ),
});

describe('percent-encoding as OAuth signs it', () => {
  it('encodes every string as the byte-by-byte rule does (lone surrogates included)', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(percentEncode(s)).toBe(encodeByBytes(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('decodes every string, well-formed or not, as the lenient byte-by-byte rule does', () => {
    const escapes = fc.string({
      unit: fc.oneof(
        fc.constantFrom('%', '%4', '%C3', '%A9', '%e2%82%ac', '%ED%A0%80', '%zz', '%FF', 'a', ' '),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(escapes, (s) => {
        expect(percentDecode(s)).toBe(decodeByBytes(s));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(anyText, (s) => {
        expect(percentDecode(percentEncode(s))).toBe(Buffer.from(s, 'utf8').toString('utf8'));
      }),
      { numRuns: 1000 },
    );
  });
});
