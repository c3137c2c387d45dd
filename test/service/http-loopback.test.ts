import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader } from '../helpers/oauth-client.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came off the socket (still gzipped when the server gzipped them). */
  raw: Buffer;
  text: string;
}

interface SendOptions {
  method?: string;
  /** Method the signature is computed for (default: the transport method). */
  signAs?: string;
  /** Host the signature is computed for (default: the Host header actually sent). */
  signHost?: string;
  headers?: Record<string, string>;
  /** Form parameters, sent form-encoded and signed. */
  form?: Record<string, string>;
  /** A raw body, unsigned (for size limits); `chunked` sends it without a Content-Length. */
  body?: Buffer;
  chunked?: boolean;
}

/**
 * The same rules as http-rules.test.ts, over a real socket: node:http client against the service
 * listening on loopback. The Host header is 127.0.0.1:<port>, so that is the URL that is signed.
 */
describe.each(DATABASES)('HTTP rules over loopback on %s', (kind) => {
  let svc: TestService;
  let port: number;

  beforeAll(async () => {
    svc = await startTestService(kind);
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    port = (svc.app.server.address() as AddressInfo).port;
  });
  afterAll(() => svc.close());

  function send(pathAndQuery: string, options: SendOptions = {}): Promise<Response> {
    const method = options.method ?? 'GET';
    const host = `127.0.0.1:${port}`;
    const headers: Record<string, string> = { ...options.headers };
    let payload: Buffer | undefined = options.body;
    if (options.form) {
      payload = Buffer.from(new URLSearchParams(options.form).toString().replace(/\+/g, '%20'));
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    headers.authorization ??= authHeader(
      svc.consumer,
      options.signAs ?? method,
      `http://${options.signHost ?? host}${pathAndQuery}`,
      options.form ?? {},
    );
    if (payload && !options.chunked) headers['content-length'] = String(payload.length);
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = request({ host: '127.0.0.1', port, method, path: pathAndQuery, headers }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, raw, text: raw.toString('utf8') });
        });
        res.on('error', reject);
      });
      // A server may answer (413) and close before a large body is fully written: that is fine.
      req.on('error', (err) => {
        if (!answered) reject(err);
      });
      if (payload && options.chunked) {
        for (let i = 0; i < payload.length; i += 64 * 1024) req.write(payload.subarray(i, i + 64 * 1024));
        req.end();
      } else req.end(payload);
    });
  }

  const query = (params: Record<string, string>) => '?' + new URLSearchParams(params).toString().replace(/\+/g, '%20');

  it('a signed GET on the loopback Host is answered 200 with an ETag', async () => {
    const res = await send(`/catalog/titles${query({ term: 'dark knight' })}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(Number(parseXml(res.text).catalog_titles.number_of_results)).toBeGreaterThan(0);
  });

  it('a request signed for another Host than the one sent is 401', async () => {
    const res = await send(`/catalog/titles${query({ term: 'dark knight' })}`, { signHost: 'marquee.test' });
    expect(res.status).toBe(401);
    expect(parseXml(res.text).status).toMatchObject({ status_code: '401', message: 'Invalid Signature' });
  });

  it('Accept-Encoding: gzip sends gzip bytes that decompress to the plain body', async () => {
    const path = `/catalog/titles${query({ term: 'dark knight' })}`;
    const plain = await send(path);
    const zipped = await send(path, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.raw.length).toBeLessThan(plain.raw.length);
    expect(gunzipSync(zipped.raw).toString('utf8')).toBe(plain.text);
  });

  it('the streamed index arrives chunked and gzipped, and decompresses to every title', async () => {
    const count = await sql<{ n: number }>`select count(*) as n from titles`.execute(svc.db.kysely);
    const zipped = await send('/catalog/titles/index', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['transfer-encoding']).toBe('chunked');
    const xml = gunzipSync(zipped.raw).toString('utf8');
    expect(xml.endsWith('</catalog_title_index>')).toBe(true);
    expect(xml.split('<title_index_item>').length - 1).toBe(Number(count.rows[0]!.n));
  });

  it('If-None-Match with the current ETag is 304 with no body', async () => {
    const path = `/catalog/titles${query({ term: 'dark knight' })}`;
    const first = await send(path);
    const res = await send(path, {
      headers: { 'if-none-match': first.headers.etag as string, 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(304);
    expect(res.raw.length).toBe(0);
    expect(res.headers.etag).toBe(first.headers.etag);
    const index = await send('/catalog/titles/index', { headers: { 'if-none-match': '*' } });
    expect(index.status).toBe(304);
    expect(index.raw.length).toBe(0);
  });

  it('a 304 carries no Content-Length, Content-Type or Transfer-Encoding (RFC 9110 §8.6, §15.4.5)', async () => {
    const path = `/catalog/titles${query({ term: 'dark knight' })}`;
    const first = await send(path);
    expect(first.headers['content-length']).toBe(String(first.raw.length));
    for (const headers of [{}, { 'accept-encoding': 'gzip' }] as Array<Record<string, string>>) {
      const res = await send(path, { headers: { 'if-none-match': first.headers.etag as string, ...headers } });
      expect(res.status).toBe(304);
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers.etag).toBe(first.headers.etag);
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
    const index = await send('/catalog/titles/index', { headers: { 'if-none-match': '*' } });
    expect(index.status).toBe(304);
    expect(index.headers['content-length']).toBeUndefined();
    expect(index.headers['transfer-encoding']).toBeUndefined();
  });

  it('a URL over 4096 bytes is 414 with a status body; the same query as POST with an override is 200', async () => {
    const params = { term: 'dark knight', expand: Array(500).fill('synopsis').join(',') };
    const long = await send(`/catalog/titles${query(params)}`);
    expect(long.status).toBe(414);
    expect(parseXml(long.text).status).toMatchObject({
      status_code: '414',
      message: 'Request URI too long; resend as POST with a method override',
    });
    const post = await send('/catalog/titles', {
      method: 'POST',
      form: params,
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(post.status).toBe(200);
    expect(Number(parseXml(post.text).catalog_titles.number_of_results)).toBeGreaterThan(0);
  });

  it('a body over 1 MiB is 413 with a status body, with or without a Content-Length', async () => {
    const body = Buffer.from('term=' + 'x'.repeat(1024 * 1024 + 100));
    for (const chunked of [false, true]) {
      const res = await send('/catalog/titles', {
        method: 'POST',
        body,
        chunked,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-http-method-override': 'GET' },
      });
      expect(res.status, `chunked=${chunked}`).toBe(413);
      expect(parseXml(res.text).status).toMatchObject({ status_code: '413', message: 'Request body too large' });
    }
    // The server still answers afterwards.
    expect((await send('/catalog')).status).toBe(200);
  });

  it('a POST with X-HTTP-Method-Override: GET, signed as POST, is handled as GET', async () => {
    const res = await send(`/catalog/titles${query({ term: 'dark knight' })}`, {
      method: 'POST',
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.status).toBe(200);
    expect(parseXml(res.text).catalog_titles.catalog_title.length).toBeGreaterThan(0);
    const signedAsGet = await send(`/catalog/titles${query({ term: 'dark knight' })}`, {
      method: 'POST',
      signAs: 'GET',
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(signedAsGet.status).toBe(401);
  });

  it('a POST with method=GET in the query and its parameters in a form body is handled as GET', async () => {
    const res = await send('/catalog/titles?method=GET', {
      method: 'POST',
      form: { term: 'dark knight', max_results: '2' },
    });
    expect(res.status).toBe(200);
    expect(parseXml(res.text).catalog_titles.catalog_title).toHaveLength(2);
  });

  it('a path that is not valid percent-encoding is 404 with a status body over a socket too', async () => {
    const res = await send('/catalog/titles/movies/%ZZ');
    expect(res.status).toBe(404);
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(parseXml(res.text).status).toMatchObject({ status_code: '404', message: 'Resource not found' });
  });
});
