import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import OAuth from 'oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, revokeConsumer } from '../../service/store/oauth/consumers.ts';
import { authHeader, oauthParams, signedUrl, signer, type Credentials } from '../helpers/oauth-client.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/**
 * OAuth as clients meet it: whole requests through Fastify (inject) and over a loopback socket,
 * signed by two independent client libraries. The verifier's fine print is in
 * test/unit/oauth-verify.test.ts; here the question is whether what a client signs is what the
 * service verifies once the request has crossed the HTTP stack.
 */

const TRANSPORTS = ['inject', 'http'] as const;
type Transport = (typeof TRANSPORTS)[number];

interface Outgoing {
  method: string;
  /** The absolute URL the request was signed for; its host is sent as the Host header. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  body: string;
}

const SEARCH = 'dark knight';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const now = () => Math.floor(Date.now() / 1000);

/** Form/query encoding as RFC 3986 wants it (`%20`, not `+`), as most OAuth clients send. */
const query = (params: Record<string, string>) => new URLSearchParams(params).toString().replace(/\+/g, '%20');

/** The `oauth` npm package: a second client, independent of oauth-1.0a and of the service. */
const oauthPackage = (c: Credentials) => new OAuth.OAuth('', '', c.key, c.secret, '1.0', null, 'HMAC-SHA1');

/** oauth-1.0a's parameters with a fixed timestamp and nonce, for the clock and replay cases. */
function oauthParamsAt(
  c: Credentials,
  method: string,
  url: string,
  timestamp: number,
  nonce: string,
): Record<string, string> {
  const s = signer(c);
  s.getTimeStamp = () => timestamp;
  s.getNonce = () => nonce;
  const all = s.authorize({ url, method, data: {} }) as unknown as Record<string, string | number>;
  return Object.fromEntries(
    Object.entries(all)
      .filter(([k]) => k.startsWith('oauth_'))
      .map(([k, v]) => [k, String(v)]),
  );
}

function withQuery(url: string, params: Record<string, string>): string {
  return `${url}${url.includes('?') ? '&' : '?'}${query(params)}`;
}

/** The contract's status body, exactly: status_code and message, nothing else. */
function expectStatus(answer: Answer, code: number, message: string): void {
  expect(answer.status, answer.body).toBe(code);
  expect(parseXml(answer.body)).toEqual({
    '?xml': { version: '1.0', standalone: 'yes' },
    status: { status_code: String(code), message },
  });
}

function expectSearchResults(answer: Answer): void {
  expect(answer.status, answer.body).toBe(200);
  const titles = parseXml(answer.body).catalog_titles.catalog_title;
  expect(titles.length).toBeGreaterThan(0);
  expect(titles[0].title.regular).toMatch(/dark knight/i);
}

/**
 * A whole HTTP exchange over a raw socket, so the request line is exactly `text` (which asks for
 * `Connection: close`). Written, not ended: Node's server drops a request whose client half-closes.
 */
function rawExchange(port: number, text: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const head = data.slice(0, data.indexOf('\r\n\r\n'));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      expect(head, 'raw responses are read as Content-Length bodies').not.toMatch(/transfer-encoding: chunked/i);
      resolve({ status, body: data.slice(head.length + 4) });
    });
  });
}

/** node:http rather than fetch: fetch may not set its own Host header. */
function requestWithHost(port: number, host: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(DATABASES)('OAuth over HTTP on %s', (kind) => {
  let svc: TestService;
  let port: number;
  /** Where requests are addressed and signed: the real listener; inject sends the same Host. */
  let origin: string;
  let revoked: Credentials;

  beforeAll(async () => {
    svc = await startTestService(kind);
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const address = svc.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    origin = `http://127.0.0.1:${port}`;
    revoked = await createConsumer(svc.db, { name: 'Revoked App' });
    await revokeConsumer(svc.db, revoked.key);
  });
  afterAll(() => svc.close());

  async function send(transport: Transport, out: Outgoing): Promise<Answer> {
    const u = new URL(out.url);
    if (transport === 'inject') {
      const res = await svc.app.inject({
        method: out.method as 'GET',
        url: u.pathname + u.search,
        headers: { host: u.host, ...out.headers },
        ...(out.body !== undefined ? { payload: out.body } : {}),
      });
      return { status: res.statusCode, body: res.body };
    }
    const res = await fetch(out.url, {
      method: out.method,
      headers: out.headers ?? {},
      ...(out.body !== undefined ? { body: out.body } : {}),
    });
    return { status: res.status, body: await res.text() };
  }

  const searchUrl = (params: Record<string, string> = {}) =>
    `${origin}/catalog/titles?${query({ term: SEARCH, max_results: '5', ...params })}`;

  describe.each(TRANSPORTS)('through %s', (transport) => {
    describe('signed requests (oauth-1.0a) are accepted', () => {
      it('with the OAuth parameters in the Authorization header', async () => {
        const url = searchUrl();
        expectSearchResults(
          await send(transport, {
            method: 'GET',
            url,
            headers: { authorization: authHeader(svc.consumer, 'GET', url) },
          }),
        );
      });

      it('with the OAuth parameters in the query string', async () => {
        expectSearchResults(await send(transport, { method: 'GET', url: signedUrl(svc.consumer, 'GET', searchUrl()) }));
      });

      for (const override of ['X-HTTP-Method-Override header', 'method parameter'] as const) {
        it(`with everything in a form body, POST turned GET by the ${override}, signed over POST`, async () => {
          const url = `${origin}/catalog/titles`;
          // Reserved and non-ASCII characters in a parameter the resource ignores: the signature covers it.
          const form: Record<string, string> = { term: SEARCH, max_results: '5', note: "a+b & c=d *!'() ~ é/?" };
          if (override === 'method parameter') form.method = 'GET';
          const body = new URLSearchParams({ ...form, ...oauthParams(svc.consumer, 'POST', url, form) }).toString();
          const headers: Record<string, string> = {
            ...FORM,
            ...(override === 'method parameter' ? {} : { 'x-http-method-override': 'GET' }),
          };
          expectSearchResults(await send(transport, { method: 'POST', url, headers, body }));
        });
      }

      it('with a POST whose parameters all ride in the query string and the body is empty', async () => {
        const url = signedUrl(svc.consumer, 'POST', searchUrl({ method: 'GET' }));
        expectSearchResults(await send(transport, { method: 'POST', url }));
      });
    });

    describe('signed requests (the oauth package) are accepted', () => {
      it('a GET signed with signUrl', async () => {
        const url = oauthPackage(svc.consumer).signUrl(searchUrl(), '', '', 'GET');
        expect(url).toContain('oauth_signature=');
        expectSearchResults(await send(transport, { method: 'GET', url }));
      });

      it('a GET with the Authorization header from authHeader', async () => {
        const url = searchUrl();
        const authorization = oauthPackage(svc.consumer).authHeader(url, '', '', 'GET');
        expect(authorization).toMatch(/^OAuth /);
        expectSearchResults(await send(transport, { method: 'GET', url, headers: { authorization } }));
      });
    });

    describe('the consumer-key-only level', () => {
      it('autocomplete with just oauth_consumer_key', async () => {
        const res = await send(transport, {
          method: 'GET',
          url: `${origin}/catalog/titles/autocomplete?${query({ term: 'dark', oauth_consumer_key: svc.consumer.key })}`,
        });
        expect(res.status, res.body).toBe(200);
        const items = parseXml(res.body).autocomplete.autocomplete_item;
        expect(items.length).toBeGreaterThan(0);
        for (const item of items) expect(item.title.short).toMatch(/\bdark/i);
      });

      it('/oauth/clock/time answers <time> near now', async () => {
        const res = await send(transport, {
          method: 'GET',
          url: `${origin}/oauth/clock/time?oauth_consumer_key=${svc.consumer.key}`,
        });
        expect(res.status, res.body).toBe(200);
        const time = Number(parseXml(res.body).time);
        expect(Math.abs(time - now())).toBeLessThanOrEqual(5);
      });

      it('a fully signed request is accepted at the key level too', async () => {
        const url = `${origin}/oauth/clock/time`;
        expect(
          (
            await send(transport, {
              method: 'GET',
              url,
              headers: { authorization: authHeader(svc.consumer, 'GET', url) },
            })
          ).status,
        ).toBe(200);
      });
    });

    describe('refusals carry the contract status bodies', () => {
      it('a signature made with the wrong secret: 401 Invalid Signature', async () => {
        const url = signedUrl({ key: svc.consumer.key, secret: 'not-the-secret' }, 'GET', searchUrl());
        expectStatus(await send(transport, { method: 'GET', url }), 401, 'Invalid Signature');
      });

      it('a parameter changed after signing: 401 Invalid Signature', async () => {
        const url = signedUrl(svc.consumer, 'GET', searchUrl());
        const tampered = url.replace('term=dark%20knight', 'term=batman');
        expect(tampered).not.toBe(url);
        expectStatus(await send(transport, { method: 'GET', url: tampered }), 401, 'Invalid Signature');
        // A form parameter changed after signing, likewise.
        const post = `${origin}/catalog/titles`;
        const form = { term: SEARCH, method: 'GET' };
        const body = new URLSearchParams({ ...form, ...oauthParams(svc.consumer, 'POST', post, form) })
          .toString()
          .replace('term=dark+knight', 'term=dark+night');
        expectStatus(
          await send(transport, { method: 'POST', url: post, headers: FORM, body }),
          401,
          'Invalid Signature',
        );
      });

      it('a request signed over GET but sent as a POST with an override: 401 Invalid Signature', async () => {
        const url = signedUrl(svc.consumer, 'GET', searchUrl());
        expectStatus(
          await send(transport, { method: 'POST', url, headers: { 'x-http-method-override': 'GET' } }),
          401,
          'Invalid Signature',
        );
      });

      it('a timestamp 301 s away from the service clock either way: 401 Timestamp Is Invalid', async () => {
        // The service's clock held at the second the client signs in: a request still under way when
        // the next second begins (a busy machine) would otherwise find a +301 s timestamp 300 s away.
        try {
          for (const skew of [-301, 301]) {
            const at = now();
            svc.clock.now = at;
            const url = withQuery(
              searchUrl(),
              oauthParamsAt(svc.consumer, 'GET', searchUrl(), at + skew, `stale-${transport}-${skew}`),
            );
            expectStatus(await send(transport, { method: 'GET', url }), 401, 'Timestamp Is Invalid');
          }
        } finally {
          svc.clock.now = undefined;
        }
        // The same by moving the service's clock instead of the client's.
        try {
          for (const skew of [-301, 301]) {
            // Signed at the second read once: a second ticking between signing and moving the clock would make -301 read -300.
            const at = now();
            const url = withQuery(
              searchUrl(),
              oauthParamsAt(svc.consumer, 'GET', searchUrl(), at, `moved-${transport}-${skew}`),
            );
            svc.clock.now = at + skew;
            expectStatus(await send(transport, { method: 'GET', url }), 401, 'Timestamp Is Invalid');
          }
        } finally {
          svc.clock.now = undefined;
        }
        // Within the window (with a margin for the second that may tick meanwhile) is fine.
        const url = withQuery(
          searchUrl(),
          oauthParamsAt(svc.consumer, 'GET', searchUrl(), now() - 290, `fresh-enough-${transport}`),
        );
        expectSearchResults(await send(transport, { method: 'GET', url }));
      });

      it('the identical signed request sent twice: the second is 401 Nonce Already Used', async () => {
        const url = signedUrl(svc.consumer, 'GET', searchUrl());
        expectSearchResults(await send(transport, { method: 'GET', url }));
        expectStatus(await send(transport, { method: 'GET', url }), 401, 'Nonce Already Used');
        // Likewise with the parameters in the header.
        const plain = searchUrl();
        const headers = { authorization: authHeader(svc.consumer, 'GET', plain) };
        expectSearchResults(await send(transport, { method: 'GET', url: plain, headers }));
        expectStatus(await send(transport, { method: 'GET', url: plain, headers }), 401, 'Nonce Already Used');
      });

      it('a refused request does not burn its nonce', async () => {
        const timestamp = now();
        const nonce = `kept-${transport}-${timestamp}`;
        const genuine = withQuery(searchUrl(), oauthParamsAt(svc.consumer, 'GET', searchUrl(), timestamp, nonce));
        expectStatus(
          await send(transport, { method: 'GET', url: genuine.replace('max_results=5', 'max_results=6') }),
          401,
          'Invalid Signature',
        );
        expectSearchResults(await send(transport, { method: 'GET', url: genuine }));
      });

      it('an unknown consumer: 401 Invalid Signature, signed or key-only', async () => {
        const stranger = { key: 'nosuchconsumerkey', secret: 'whatever' };
        expectStatus(
          await send(transport, { method: 'GET', url: signedUrl(stranger, 'GET', searchUrl()) }),
          401,
          'Invalid Signature',
        );
        expectStatus(
          await send(transport, {
            method: 'GET',
            url: `${origin}/oauth/clock/time?oauth_consumer_key=${stranger.key}`,
          }),
          401,
          'Invalid Signature',
        );
      });

      it('a revoked consumer: 401 Invalid Signature, signed or key-only', async () => {
        expectStatus(
          await send(transport, { method: 'GET', url: signedUrl(revoked, 'GET', searchUrl()) }),
          401,
          'Invalid Signature',
        );
        const auto = `${origin}/catalog/titles/autocomplete?${query({ term: 'dark', oauth_consumer_key: revoked.key })}`;
        expectStatus(await send(transport, { method: 'GET', url: auto }), 401, 'Invalid Signature');
      });

      it('no consumer key at all: 401 Missing Required Consumer Key, at the signed and the key level', async () => {
        expectStatus(await send(transport, { method: 'GET', url: searchUrl() }), 401, 'Missing Required Consumer Key');
        expectStatus(
          await send(transport, { method: 'GET', url: `${origin}/catalog/titles/autocomplete?term=dark` }),
          401,
          'Missing Required Consumer Key',
        );
        expectStatus(
          await send(transport, { method: 'GET', url: `${origin}/oauth/clock/time` }),
          401,
          'Missing Required Consumer Key',
        );
        expectStatus(
          await send(transport, { method: 'GET', url: `${origin}/oauth/clock/time?oauth_consumer_key=` }),
          401,
          'Missing Required Consumer Key',
        );
      });

      it('a consumer key without a signature at the signed level: 401 Invalid Signature', async () => {
        expectStatus(
          await send(transport, { method: 'GET', url: searchUrl({ oauth_consumer_key: svc.consumer.key }) }),
          401,
          'Invalid Signature',
        );
      });
    });
  });

  describe('request targets and Host headers on a real socket', () => {
    it('an absolute-form request line verifies', async () => {
      const url = signedUrl(svc.consumer, 'GET', searchUrl());
      const answer = await rawExchange(
        port,
        `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
      expectSearchResults(answer);
    });

    it('an absolute-form POST with its parameters in the query and no body or Content-Length verifies', async () => {
      const url = signedUrl(svc.consumer, 'POST', searchUrl({ method: 'GET' }));
      expectSearchResults(
        await rawExchange(port, `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
      );
    });

    it('a request through a proxy Host header verifies when signed for that host', async () => {
      for (const host of ['api.marquee.example', 'api.marquee.example:8443']) {
        const url = signedUrl(
          svc.consumer,
          'GET',
          `http://${host}/catalog/titles?${query({ term: SEARCH, max_results: '5' })}`,
        );
        const u = new URL(url);
        expectSearchResults(await requestWithHost(port, host, u.pathname + u.search));
      }
    });

    it('a request signed for the loopback address but arriving with a proxy Host header: 401 Invalid Signature', async () => {
      const u = new URL(signedUrl(svc.consumer, 'GET', searchUrl()));
      expectStatus(await requestWithHost(port, 'api.marquee.example', u.pathname + u.search), 401, 'Invalid Signature');
    });
  });
});
