import { describe, expect, it } from 'vitest';
import { authErrorFromResponse } from '../../electron/core/auth/index.ts';
import { appErrorOf, errorKindOf } from '../../electron/core/transport/index.ts';

/** One map from a service's refusal to the app's error kind, for sign-in's token calls and every other call. */

const now = () => Date.parse('2026-11-28T02:00:00Z');
const statusXml = (code: number, message: string) =>
  `<?xml version="1.0"?><status><status_code>${code}</status_code><message>${message}</message></status>`;

describe('errorKindOf', () => {
  it.each([
    [401, 'Invalid Or Expired Token', false, 'auth'],
    [403, 'Over queries per second limit', false, 'quota'],
    [403, 'Over queries per day limit', true, 'quota'],
    [403, 'Forbidden', true, 'quota'],
    [403, 'User ID access token mismatch', false, 'auth'],
    [429, 'Too many requests', false, 'quota'],
    [404, 'Resource not found', false, 'not_found'],
    [412, 'Precondition failed. Resource has been modified.', false, 'conflict'],
    [500, 'Internal error', false, 'server'],
    [503, 'Unavailable', true, 'server'],
    [400, 'Missing Required Access Token', false, 'auth'],
    [400, 'position is invalid', false, 'invalid'],
    [413, 'Request body too large', false, 'invalid'],
  ] as const)('%i “%s” (Retry-After: %s) is %s', (status, message, retry, kind) => {
    expect(errorKindOf(status, message, retry)).toBe(kind);
  });
});

describe('appErrorOf', () => {
  it('keeps the status, the message, the sub_code and Retry-After in seconds, a date included', () => {
    const error = appErrorOf(
      {
        status: 403,
        headers: { 'retry-after': 'Sat, 28 Nov 2026 02:00:30 GMT' },
        message: 'Over queries per day limit',
      },
      now,
    );
    expect(error).toEqual({ kind: 'quota', status: 403, message: 'Over queries per day limit', retryAfter: 30 });
    expect(
      appErrorOf({ status: 400, headers: {}, message: 'Title is saved; cannot move it', subCode: 620 }, now),
    ).toEqual({ kind: 'invalid', status: 400, message: 'Title is saved; cannot move it', subCode: 620 });
  });

  it('says “HTTP <status>” when the answer has no message, and leaves out a Retry-After it cannot read', () => {
    const error = appErrorOf({ status: 403, headers: { 'retry-after': 'later' } }, now);
    expect(error).toEqual({ kind: 'quota', status: 403, message: 'HTTP 403' });
  });
});

describe('sign-in judges an answer by the same map', () => {
  it('takes a quota refusal whose Retry-After is an HTTP-date as quota, with the seconds to wait', () => {
    const error = authErrorFromResponse(
      403,
      statusXml(403, 'Over queries per day limit'),
      { 'retry-after': 'Sat, 28 Nov 2026 03:00:00 GMT' },
      now,
    );
    expect(error.code).toBe('service');
    expect(error.appError).toMatchObject({ kind: 'quota', status: 403, retryAfter: 3600 });
    expect(error.message).toContain('Over queries per day limit');
  });

  it('takes a quota message without Retry-After as quota, as every other call does', () => {
    const error = authErrorFromResponse(403, statusXml(403, 'Over queries per second limit'), {}, now);
    expect(error.appError.kind).toBe('quota');
    expect(error.appError.retryAfter).toBeUndefined();
  });

  it('takes any other 403 or a 401 as a refused sign-in', () => {
    expect(authErrorFromResponse(403, statusXml(403, 'Forbidden'), {}, now)).toMatchObject({
      code: 'rejected',
      appError: { kind: 'auth', status: 403 },
    });
    expect(authErrorFromResponse(401, statusXml(401, 'Invalid Signature'), {}, now).code).toBe('rejected');
  });

  it('takes a 503 with Retry-After as a server failure that says when to come back', () => {
    const error = authErrorFromResponse(503, 'Service Unavailable', { 'retry-after': '5' }, now);
    expect(error.appError).toMatchObject({ kind: 'server', retryAfter: 5, message: 'Sign-in failed: HTTP 503.' });
  });
});
