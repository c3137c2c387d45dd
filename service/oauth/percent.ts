/**
 * Percent-encoding as OAuth 1.0a needs it (RFC 5849 §3.6, RFC 3986 §2.1): UTF-8 bytes, every
 * byte but the unreserved set escaped, hex in upper case. Decoding is the inverse, plus the
 * `+`-as-space rule of application/x-www-form-urlencoded for query strings and form bodies.
 */

const HEX = '0123456789ABCDEF';

/** ALPHA / DIGIT / "-" / "." / "_" / "~" — the only bytes left as they are. */
function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}

/** Strings made only of unreserved characters: most OAuth parameters (keys, nonces, timestamps, terms). */
const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;

/** What encodeURIComponent leaves that RFC 3986 escapes. */
const SUB_DELIMS_LEFT = /[!'()*]/g;

/**
 * RFC 3986 encoding (upper-case hex). The engine's encodeURIComponent does the work, plus the five
 * characters it leaves; a lone surrogate (which it refuses) goes byte by byte and becomes U+FFFD.
 */
export function percentEncode(value: string): string {
  if (UNRESERVED_ONLY.test(value)) return value; // nothing to escape: the common case, without a Buffer per call
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return percentEncodeBytes(value);
  }
  return encoded.replace(SUB_DELIMS_LEFT, (c) =>
    c === '*' ? '%2A' : '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

function percentEncodeBytes(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    out += isUnreserved(byte) ? String.fromCharCode(byte) : '%' + HEX[byte >> 4]! + HEX[byte & 15]!;
  }
  return out;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/**
 * Strict-RFC decoding (no `+` rule). Lenient on malformed input — a stray `%` stays literal and
 * invalid UTF-8 becomes U+FFFD — so a sloppy client gets "Invalid Signature", not a 500.
 */
export function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value); // well-formed input, the common case; anything else is decoded leniently below
  } catch {
    return percentDecodeLeniently(value);
  }
}

function percentDecodeLeniently(value: string): string {
  const input = Buffer.from(value, 'utf8');
  const bytes = Buffer.alloc(input.length);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === 0x25 && i + 2 < input.length) {
      const hi = hexValue(input[i + 1]!);
      const lo = hexValue(input[i + 2]!);
      if (hi >= 0 && lo >= 0) {
        bytes[n++] = (hi << 4) | lo;
        i += 2;
        continue;
      }
    }
    bytes[n++] = byte;
  }
  return bytes.toString('utf8', 0, n);
}

/** application/x-www-form-urlencoded value decoding: `+` is a space, then percent-decoding. */
export function formDecode(value: string): string {
  return percentDecode(value.replace(/\+/g, ' '));
}

/**
 * Parses a query string or form body into decoded pairs, keeping order and duplicates
 * (RFC 5849 §3.4.1.3.1: a name without `=` has an empty value; empty segments are skipped).
 */
export function parseForm(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    const value = eq < 0 ? '' : segment.slice(eq + 1);
    pairs.push([formDecode(name), formDecode(value)]);
  }
  return pairs;
}
