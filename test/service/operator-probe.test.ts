import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs, serviceDataDir } from '../../electron/embedded-service.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { sampleValue, typeOf } from '../helpers/prometheus-text.ts';
import { running, startService, type RunningService } from '../helpers/service-process.ts';
import { signedFetch } from '../helpers/signed-fetch.ts';
import { copyDemoStore } from '../helpers/service.ts';

/**
 * An outside probe of the operator endpoints: the service as a real process, started with the
 * flags the desktop app gives its embedded service, reached over loopback HTTP.
 */
let svc: RunningService;
let dir: string;
let titlePath: string;
/** Every credential and signature this file sends: none may show in the metrics. */
const sentSecrets = new Set<string>();

const TITLE_ROUTE = { route: '/catalog/titles/movies/:id', method: 'GET' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-operator-'));
  // On a copy of the run's demo store: this file probes a running service, not its first start.
  copyDemoStore(serviceDataDir(dir));
  svc = await startService(serviceArgs(dir, {}));
  sentSecrets.add(svc.demo.secret);
  const search = await signed('/catalog/titles?term=the&max_results=1');
  expect(search.status).toBe(200);
  titlePath = /\/catalog\/titles\/movies\/\d+/.exec(search.body)![0];
}, 120_000);

afterAll(async () => {
  if (svc?.proc.exitCode === null) await svc.stop('SIGTERM');
  for (const proc of running) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A GET signed in the Authorization header, whose signature is noted as sent. */
async function signed(path: string, consumer: Credentials = svc.demo, token?: Credentials) {
  if (token) sentSecrets.add(token.secret);
  const url = `${svc.localUrl}${path}`;
  const header = authHeader(consumer, 'GET', url, {}, token);
  noteSignature(header);
  return signedFetch(svc.localUrl, consumer, token, 'GET', path, undefined, { authorization: header });
}

function noteSignature(header: string): void {
  const signature = /oauth_signature="([^"]+)"/.exec(header)?.[1];
  if (signature) {
    sentSecrets.add(signature);
    sentSecrets.add(decodeURIComponent(signature));
  }
}

async function metrics(): Promise<string> {
  const res = await fetch(`${svc.localUrl}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('health and readiness', () => {
  it('answers /healthz and /readyz 200 without a signature', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`${svc.localUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<status_code>200</status_code>');
    }
  });
});

describe('/metrics', () => {
  it('is Prometheus text with a request-duration histogram, the store’s timings and the process’s own', async () => {
    const res = await fetch(`${svc.localUrl}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(typeOf(text, 'marquee_http_request_duration_seconds')).toBe('histogram');
    expect(typeOf(text, 'marquee_store_query_duration_seconds')).toBe('histogram');
    expect(sampleValue(text, 'marquee_store_query_duration_seconds_count', { dialect: 'sqlite' })).toBeGreaterThan(0);
    expect(sampleValue(text, 'marquee_word_table_words')).toBeGreaterThan(1000);
    expect(typeOf(text, 'nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts exactly the requests it was sent, the repeats answered from kept representations too', async () => {
    const before = await metrics();
    const sent = 7;
    for (let i = 0; i < sent; i++) expect((await signed(titlePath)).status).toBe(200);
    const after = await metrics();
    const counted = (text: string) =>
      sampleValue(text, 'marquee_http_requests_total', { ...TITLE_ROUTE, status: '200' });
    const timed = (text: string) => sampleValue(text, 'marquee_http_request_duration_seconds_count', TITLE_ROUTE);
    expect(counted(after) - counted(before)).toBe(sent);
    expect(timed(after) - timed(before)).toBe(sent);
  });

  it('counts OAuth refusals by reason: signature, timestamp, nonce, token', async () => {
    const before = await metrics();
    const wrongSecret = { key: svc.demo.key, secret: 'not-the-consumer-secret' };
    sentSecrets.add(wrongSecret.secret);
    expect((await signed(titlePath, wrongSecret)).status).toBe(401);

    const url = `${svc.localUrl}${titlePath}`;
    const stale = authHeader(svc.demo, 'GET', url, {}, undefined, Math.floor(Date.now() / 1000) - 3600);
    noteSignature(stale);
    expect((await fetch(url, { headers: { authorization: stale } })).status).toBe(401);

    const once = authHeader(svc.demo, 'GET', url);
    noteSignature(once);
    expect((await fetch(url, { headers: { authorization: once } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization: once } })).status).toBe(401);

    const unknownToken = { key: 'no-such-access-token', secret: 'no-such-token-secret' };
    expect((await signed(titlePath, svc.demo, unknownToken)).status).toBe(401);

    const after = await metrics();
    const refused = (text: string, reason: string) => sampleValue(text, 'marquee_oauth_refusals_total', { reason });
    for (const reason of ['signature', 'timestamp', 'nonce', 'token'])
      expect(refused(after, reason) - refused(before, reason), reason).toBe(1);
    const status401 = (text: string) =>
      sampleValue(text, 'marquee_http_requests_total', { ...TITLE_ROUTE, status: '401' });
    expect(status401(after) - status401(before)).toBe(4);
  });

  it('shows no secret, token, signature or consumer key, and labels routes by pattern, not URL', async () => {
    const text = await metrics();
    expect(sentSecrets.size).toBeGreaterThan(5);
    for (const secret of sentSecrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(svc.demo.key);
    expect(text).not.toContain(titlePath);
    expect(text).not.toMatch(/oauth_(signature|nonce|token|consumer_key|timestamp)/);
  });
});

describe('the log', () => {
  it('is silent when started as the desktop app starts its embedded service', () => {
    expect(svc.output()).not.toMatch(/"level":/);
    expect(svc.output()).toContain('Marquee service listening on');
  });
});
