import { percentDecode } from './percent.ts';

/**
 * What the verifier needs of an HTTP request, independent of the web framework. Query and body
 * pairs are already form-decoded (`+` is a space), in arrival order, duplicates kept.
 */
export interface SignedRequest {
  /** The transport method, before any X-HTTP-Method-Override or `method` parameter. */
  method: string;
  scheme: string;
  /** The Host header as sent; may include a port. */
  host: string;
  /** The path as sent, without the query. */
  path: string;
  query: Array<[string, string]>;
  /** Decoded form parameters; [] unless the body is application/x-www-form-urlencoded. */
  body: Array<[string, string]>;
  authorization?: string;
}

/** The request's parameters as OAuth sees them (RFC 5849 §3.4.1.3.1). */
export interface CollectedParams {
  /** Every parameter the signature covers: header (minus realm), query, body; a repeated identical oauth_* pair once. */
  all: Array<[string, string]>;
  /** Each `oauth_*` parameter by name, wherever it was sent. */
  oauth: Map<string, string>;
  /** `oauth_*` names sent more than once with different values; such a request is ambiguous. */
  conflicts: string[];
}

/**
 * Parses `OAuth realm="…", oauth_consumer_key="…", …` (RFC 5849 §3.5.1) into percent-decoded
 * pairs without `realm`. Answers null for another scheme (Basic auth from a proxy, say), so the
 * request falls back to query and body parameters.
 */
export function parseAuthorizationHeader(value: string): Array<[string, string]> | null {
  const scheme = /^\s*OAuth(?:\s+|$)/i.exec(value);
  if (!scheme) return null;
  const rest = value.slice(scheme[0].length);
  // name = "quoted value" | bare-value, separated by commas; quoted-pair escapes allowed.
  const param = /[\s,]*([^\s=,"]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*/y;
  const pairs: Array<[string, string]> = [];
  let pos = 0;
  for (;;) {
    param.lastIndex = pos;
    const m = param.exec(rest);
    if (!m) break;
    pos = param.lastIndex;
    const quoted = m[2];
    const raw = quoted === undefined ? (m[3] ?? '') : quoted.includes('\\') ? quoted.replace(/\\(.)/g, '$1') : quoted;
    const name = percentDecode(m[1]!);
    if (name.toLowerCase() !== 'realm') pairs.push([name, percentDecode(raw)]);
    if (pos < rest.length && rest[pos] !== ',') break; // malformed tail: the signature will not match
  }
  return pairs;
}

/**
 * Merges the Authorization header, query and form-body parameters: CONTRACT §5 accepts OAuth
 * parameters in any of the three, and the base string covers all of them.
 */
export function collectOAuthParams(req: SignedRequest): CollectedParams {
  const collected: CollectedParams = { all: [], oauth: new Map(), conflicts: [] };
  if (req.authorization) addParams(collected, parseAuthorizationHeader(req.authorization) ?? []);
  addParams(collected, req.query);
  addParams(collected, req.body);
  return collected;
}

/** Adds one source's pairs in order (a loop per source: no merged copy of the three is made). */
function addParams(collected: CollectedParams, pairs: ReadonlyArray<[string, string]>): void {
  const { all, oauth, conflicts } = collected;
  for (const pair of pairs) {
    const name = pair[0];
    if (name.startsWith('oauth_')) {
      const seen = oauth.get(name);
      // RFC 5849 §3.5 sends an oauth_* parameter in one place only, so a client that repeats one
      // (oauth-1.0a puts oauth_verifier in both header and body) signed it once: count it once.
      if (seen === pair[1]) continue;
      if (seen === undefined) oauth.set(name, pair[1]);
      else if (!conflicts.includes(name)) conflicts.push(name);
    }
    all.push(pair);
  }
}
