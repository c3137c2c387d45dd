import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authHeader, signedUrl } from '../helpers/oauth-client.ts';
import { running, startService, type RunningService } from '../helpers/service-process.ts';
import { copyDemoStore } from '../helpers/service.ts';

/** The service's log as an operator ships it: started with --log-level info, one JSON line per request. */
let svc: RunningService;
let dir: string;

interface RequestLine {
  level: number;
  time: number;
  reqId: string;
  method: string;
  url: string;
  route: string;
  status: number;
  ms: number;
  consumer?: string;
  msg: string;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-operator-log-'));
  // On a copy of the run's demo store: this file reads request lines, not a first start's.
  copyDemoStore(dir);
  svc = await startService(['--data-dir', dir, '--port', '0', '--log-level', 'info']);
}, 120_000);

afterAll(async () => {
  if (svc?.proc.exitCode === null) await svc.stop('SIGTERM');
  for (const proc of running) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The JSON lines the service has written so far. */
function jsonLines(): Array<Record<string, unknown>> {
  return svc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The request's line, once the service has written it (a log write may trail the answer). */
async function lineOf(requestId: string): Promise<RequestLine> {
  await expect.poll(() => jsonLines().some((l) => l.reqId === requestId && l.msg === 'request')).toBe(true);
  return jsonLines().find((l) => l.reqId === requestId && l.msg === 'request') as unknown as RequestLine;
}

it('writes one JSON line per request with its id, route, status, duration and consumer, and sends the id back', async () => {
  const search = `${svc.localUrl}/catalog/titles?term=the&max_results=1`;
  const authorization = authHeader(svc.demo, 'GET', search);
  const res = await fetch(search, { headers: { authorization } });
  expect(res.status).toBe(200);
  const requestId = res.headers.get('x-request-id')!;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

  const line = await lineOf(requestId);
  expect(line).toMatchObject({
    level: 30,
    reqId: requestId,
    method: 'GET',
    url: '/catalog/titles?term=the&max_results=1',
    route: '/catalog/titles',
    status: 200,
    consumer: svc.demo.key,
    msg: 'request',
  });
  expect(line.ms).toBeGreaterThan(0);
  expect(jsonLines().filter((l) => l.reqId === requestId)).toHaveLength(1);

  // The start-up lines print the demo credentials for the person starting it; the log never does.
  const log = JSON.stringify(jsonLines());
  const signature = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(authorization)![1]!);
  const nonce = /oauth_nonce="([^"]+)"/.exec(authorization)![1]!;
  for (const secret of [svc.demo.secret, signature, nonce]) expect(log).not.toContain(secret);
});

it('keeps OAuth parameters of a query-signed request out of the logged URL, and logs a refusal without a consumer', async () => {
  const url = signedUrl(
    { key: svc.demo.key, secret: 'a-wrong-consumer-secret' },
    'GET',
    `${svc.localUrl}/catalog/titles?term=alien`,
  );
  const res = await fetch(url);
  expect(res.status).toBe(401);
  const line = await lineOf(res.headers.get('x-request-id')!);
  expect(line).toMatchObject({ url: '/catalog/titles?term=alien', route: '/catalog/titles', status: 401 });
  expect(line.consumer).toBeUndefined();
  expect(JSON.stringify(line)).not.toMatch(/oauth_|a-wrong-consumer-secret/);
});

it('takes a proxy’s request id when it is a plain token, and makes its own otherwise', async () => {
  const given = await fetch(`${svc.localUrl}/healthz`, { headers: { 'x-request-id': 'lb-1234.abc' } });
  expect(given.headers.get('x-request-id')).toBe('lb-1234.abc');
  expect((await lineOf('lb-1234.abc')).route).toBe('/healthz');
  const odd = await fetch(`${svc.localUrl}/healthz`, { headers: { 'x-request-id': 'a b"c' } });
  expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});
