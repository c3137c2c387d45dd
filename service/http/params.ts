import type { FastifyRequest } from 'fastify';
import { API_VERSIONS, type ApiVersion, Message, SubCode } from '../../shared/protocol/index.ts';
import { ApiError } from '../model/api-error.ts';
import type { Paging } from '../model/paging.ts';

/** A request's parameters in arrival order: query string first, then a form-encoded body. */
export class Params {
  constructor(
    readonly query: Array<[string, string]>,
    readonly body: Array<[string, string]>,
  ) {}

  get(name: string): string | undefined {
    for (const [k, v] of this.query) if (k === name) return v;
    for (const [k, v] of this.body) if (k === name) return v;
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  all(): Array<[string, string]> {
    return [...this.query, ...this.body];
  }

  /** A required, non-empty parameter. */
  require(name: string): string {
    const value = this.get(name);
    if (value === undefined || value.trim() === '') throw ApiError.required(name);
    return value;
  }

  /** A required comma-separated list: items trimmed, empty ones dropped; none left is a missing parameter. */
  requireList(name: string): string[] {
    const items = this.require(name)
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
    if (items.length === 0) throw ApiError.required(name);
    return items;
  }
}

/** The request's parameters, parsed once and kept on the request (request-fields.ts). */
export function params(req: FastifyRequest): Params {
  return (req.parsedParams ??= parseParams(req));
}

function parseParams(req: FastifyRequest): Params {
  const body = Array.isArray(req.body) ? (req.body as Array<[string, string]>) : [];
  return new Params(queryPairs(req.url), body);
}

/** The query of a request target as decoded pairs, in order (empty without a `?`). */
export function queryPairs(url: string): Array<[string, string]> {
  const q = url.indexOf('?');
  return q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1))];
}

/**
 * The verb a request stands for: its transport method (HEAD reads as GET), or on a POST or GET the
 * verb named by `X-HTTP-Method-Override` or the `method` parameter, upper-cased. Never throws: an
 * invalid override is refused where requests are dispatched (route.ts).
 */
export function requestedMethod(req: FastifyRequest): string {
  const transport = req.method === 'HEAD' ? 'GET' : req.method;
  if (transport !== 'POST' && transport !== 'GET') return transport;
  const header = req.headers['x-http-method-override'];
  const override = (typeof header === 'string' ? header : undefined) ?? params(req).get('method');
  return override ? override.toUpperCase() : transport;
}

export type Output = 'xml' | 'json' | 'atom';

/** `output=json|atom|xml`, or Atom when the client asks for it by Accept (feeds only use it). */
export function outputOf(req: FastifyRequest): Output {
  return outputFrom(params(req), req.headers.accept);
}

/** `outputOf` on parameters and an Accept header already at hand. */
export function outputFrom(p: Params, accept: string | undefined): Output {
  const output = p.get('output');
  if (output === 'json' || output === 'atom' || output === 'xml') return output;
  if (accept && accept.includes('application/atom+xml')) return 'atom';
  return 'xml';
}

/** `v` = 1.0 (default) or 1.5; anything else is 400. */
export function versionOf(req: FastifyRequest): ApiVersion {
  return versionFrom(params(req));
}

/** `versionOf` on parameters already at hand. */
export function versionFrom(p: Params): ApiVersion {
  const v = p.get('v');
  if (v === undefined) return '1.0';
  if ((API_VERSIONS as readonly string[]).includes(v)) return v as ApiVersion;
  throw ApiError.invalid('v');
}

/**
 * `start_index` (0-based) and `max_results` (default 25, capped). Malformed values are 400 (sub
 * 120); `checkStart` rejects a start beyond the results once their number is known.
 */
export function pagingOf(req: FastifyRequest, cap: number, defaultMax = 25): Paging {
  const p = params(req);
  const start = intParam(p.get('start_index'), 0, 'start_index');
  const max = intParam(p.get('max_results'), defaultMax, 'max_results');
  if (max < 1) throw ApiError.invalid('max_results', SubCode.startIndexOutOfBounds);
  // No list is this long, so such a start is out of bounds; refusing it here keeps it out of SQL.
  if (start > MAX_START) throw ApiError.invalid('start_index', SubCode.startIndexOutOfBounds);
  return { start, max: Math.min(max, cap) };
}

const MAX_START = 2_147_483_647;

export function checkStart(paging: Paging, total: number): void {
  if (paging.start > 0 && paging.start >= total) {
    throw new ApiError(400, Message.invalid('start_index'), SubCode.startIndexOutOfBounds);
  }
}

function intParam(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ApiError(400, Message.invalid(name), SubCode.startIndexOutOfBounds);
  return Number(raw); // any size: a large max_results is capped, a large start_index refused
}

/** A numeric id from a URL segment; anything else (or beyond a 32-bit id) names no resource. */
export function idSegment(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) throw ApiError.notFound();
  return Number(raw);
}
