import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOAuthParams } from '../../service/oauth/params.ts';
import { baseStringUri, hmacSha1, signatureBaseString } from '../../service/oauth/signature.ts';
import { LeanSigner } from './lean-signer.ts';
import { runLoad } from './load.ts';
import { parseResponse } from './raw-http.ts';

const consumer = { key: 'key with spaces+&', secret: 'sécret/=' };
const token = { key: 'tok', secret: 'tok secret' };

/** The signature the service's own verifier expects for a GET of `path` with this Authorization header. */
function serviceSignature(
  origin: string,
  path: string,
  authorization: string,
  tokenSecret = '',
): { expected: string; sent: string } {
  const url = new URL(origin + path);
  const collected = collectOAuthParams({
    method: 'GET',
    scheme: 'http',
    host: url.host,
    path: url.pathname,
    query: [...url.searchParams],
    body: [],
    authorization,
  });
  const base = signatureBaseString('GET', baseStringUri('http', url.host, url.pathname), collected.all);
  return { expected: hmacSha1(base, consumer.secret, tokenSecret), sent: collected.oauth.get('oauth_signature')! };
}

describe('the load client', () => {
  it('signs as the service verifies: queries with encoded and repeated parameters, with and without a token, a fresh nonce each time', () => {
    const origin = 'http://127.0.0.1:8710';
    const paths = [
      '/catalog/titles/movies/60000100?expand=synopsis,cast,directors',
      '/catalog/titles?term=l%C3%A9on+the%20pro&max_results=5&b=2&b=1',
      '/users/T1/queues/instant',
    ];
    const nonces = new Set<string>();
    for (const [signer, secret] of [
      [new LeanSigner(origin, consumer), ''],
      [new LeanSigner(origin, consumer, token), token.secret],
    ] as const) {
      for (const path of paths) {
        for (let i = 0; i < 3; i++) {
          const header = signer.authorization(path);
          const { expected, sent } = serviceSignature(origin, path, header, secret);
          expect(sent, `${path} ${header}`).toBe(expected);
          nonces.add(/oauth_nonce="([^"]+)"/.exec(header)![1]!);
        }
      }
    }
    expect(nonces.size).toBe(18);
  });

  it('reads Content-Length, chunked and empty (304) responses, and waits for the rest of one', () => {
    const plain = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 5\r\nContent-Encoding: gzip\r\n\r\nhello');
    expect(parseResponse(plain)).toEqual({
      response: { status: 200, bodyBytes: 5, contentEncoding: 'gzip' },
      length: plain.length,
      close: false,
    });
    expect(parseResponse(plain.subarray(0, plain.length - 1))).toBeUndefined();
    const chunked = Buffer.from(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\nA\r\n0123456789\r\n0\r\n\r\nHTTP/1.1',
    );
    expect(parseResponse(chunked)).toEqual({
      response: { status: 200, bodyBytes: 13, contentEncoding: undefined },
      length: chunked.length - 'HTTP/1.1'.length,
      close: true,
    });
    expect(parseResponse(chunked.subarray(0, 60))).toBeUndefined();
    const notModified = Buffer.from('HTTP/1.1 304 Not Modified\r\nETag: "1"\r\n\r\n');
    expect(parseResponse(notModified)?.response.status).toBe(304);
  });

  describe('against a node:http server', () => {
    let server: http.Server;
    let port: number;
    const seen: string[] = [];
    beforeAll(async () => {
      let n = 0;
      server = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        // Every 7th answer closes its connection; every 5th is chunked; the rest have a length.
        if (++n % 7 === 0) res.setHeader('connection', 'close');
        if (n % 5 === 0) {
          res.write('chunk one,');
          res.end('chunk two');
        } else res.end('body');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends each of a counted run’s requests once, over the connections asked for, and counts every answer', async () => {
      const paths = Array.from({ length: 60 }, (_, i) => `/p/${i}`);
      let i = 0;
      const result = await runLoad({
        port,
        connections: 3,
        warmupMs: 0,
        durationMs: 0,
        requests: { warmup: 10, measured: 50 },
        next: () => ({ path: paths[i++]!, headers: { authorization: 'x' } }),
      });
      expect({ requests: result.requests, errors: result.errors, statuses: result.statuses }).toEqual({
        requests: 50,
        errors: 0,
        statuses: { 200: 50 },
      });
      expect(result.requests).toBe(50);
      expect(result.errors).toBe(0);
      expect(result.statuses).toEqual({ 200: 50 });
      expect(
        seen
          .slice(-60)
          .map((s) => s.split(' ')[1])
          .sort(),
      ).toEqual([...paths].sort());
      expect(result.latencies).toHaveLength(50);
    });
  });
});
