import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeParams,
  normalizeUrl,
  percentEncode,
  sign,
  signatureBaseString,
  type ParamList,
} from '../../electron/core/transport/signer.ts';
import { startLiveService, subscriberToken, type LiveService } from '../helpers/live-service.ts';
import { firstMovieId } from '../helpers/catalog-picks.ts';

describe('signer: vectors', () => {
  it('signs the Netflix vector', () => {
    const signed = sign({
      method: 'GET',
      url: 'http://api-public.netflix.com/catalog/titles',
      query: [
        ['term', 'Dark Knight'],
        ['count', '2'],
      ],
      consumer: { key: 'apiKey001', secret: 'sharedSecret002' },
      token: { key: 'accessToken003', secret: 'accessSecret004' },
      nonce: '1234',
      timestamp: 1355850443,
      version: '1.0',
    });
    expect(signed.oauth.oauth_signature).toBe('0JAoaqt6oz6TJx8N+06XmhPjcOs=');
    // The protocol parameters only: the query is not copied into what goes in the header.
    expect(Object.keys(signed.oauth).sort()).toEqual([
      'oauth_consumer_key',
      'oauth_nonce',
      'oauth_signature',
      'oauth_signature_method',
      'oauth_timestamp',
      'oauth_token',
      'oauth_version',
    ]);
    expect(signed.header).toContain('oauth_signature="0JAoaqt6oz6TJx8N%2B06XmhPjcOs%3D"');
    expect(signed.header).not.toContain('term');
    // Signed exactly once: the same result whether the query is in the URL or given apart.
    const inUrl = sign({
      method: 'GET',
      url: 'http://api-public.netflix.com/catalog/titles?term=Dark%20Knight&count=2',
      consumer: { key: 'apiKey001', secret: 'sharedSecret002' },
      token: { key: 'accessToken003', secret: 'accessSecret004' },
      nonce: '1234',
      timestamp: 1355850443,
    });
    expect(inUrl.oauth.oauth_signature).toBe('0JAoaqt6oz6TJx8N+06XmhPjcOs=');
    expect(inUrl.baseString.match(/term%3D/g)).toHaveLength(1);
  });

  it('builds the RFC 5849 §3.4.1.1 base string', () => {
    const params: ParamList = [
      ['oauth_consumer_key', '9djdj82h48djs9d2'],
      ['oauth_token', 'kkk9d7dh3k39sjv7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '137131201'],
      ['oauth_nonce', '7d8f3e4a'],
      ['oauth_signature', 'djosJKDKJSD8743243%2Fjdk33klY%3D'],
      // body: c2&a3=2+q
      ['c2', ''],
      ['a3', '2 q'],
    ];
    expect(signatureBaseString('POST', 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b', params)).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
    // The same through sign(): version left out as in the RFC's request.
    const signed = sign({
      method: 'post',
      url: 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
      form: [
        ['c2', ''],
        ['a3', '2 q'],
      ],
      consumer: { key: '9djdj82h48djs9d2', secret: 'j49sk3j29djd' },
      token: { key: 'kkk9d7dh3k39sjv7', secret: 'dh893hdasih9' },
      nonce: '7d8f3e4a',
      timestamp: 137131201,
      version: null,
    });
    expect(signed.baseString).toBe(
      signatureBaseString('POST', 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b', params),
    );
  });

  it('normalises the URL: lower-case scheme and host, no default port, no fragment or query', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/Path/To?x=1#frag')).toBe('http://example.com/Path/To');
    expect(normalizeUrl('https://EXAMPLE.com:443/r')).toBe('https://example.com/r');
    expect(normalizeUrl('http://example.com:8080')).toBe('http://example.com:8080/');
  });

  it('percent-encodes in upper case per RFC 3986, lone surrogates as U+FFFD', () => {
    expect(percentEncode("é ~*!'()+/=&")).toBe('%C3%A9%20~%2A%21%27%28%29%2B%2F%3D%26');
    expect(percentEncode('a\uD800b')).toBe('a%EF%BF%BDb');
    expect(
      encodeParams([
        ['a b', 'c+d'],
        ['e', ''],
      ]),
    ).toBe('a%20b=c%2Bd&e=');
  });

  it('uses fresh random nonces', () => {
    const one = sign({ method: 'GET', url: 'http://x.test/', consumer: { key: 'k', secret: 's' } });
    const two = sign({ method: 'GET', url: 'http://x.test/', consumer: { key: 'k', secret: 's' } });
    expect(one.oauth.oauth_nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(one.oauth.oauth_nonce).not.toBe(two.oauth.oauth_nonce);
  });
});

describe('signer: the service accepts what it signs', () => {
  let svc: LiveService;
  let token: { key: string; secret: string };
  let titleRef: string;
  const consumer = () => ({ key: svc.consumer.key, secret: svc.consumer.secret });

  beforeAll(async () => {
    svc = await startLiveService();
    token = await subscriberToken(svc);
    titleRef = `${svc.url}/catalog/titles/movies/${await firstMovieId(svc.db)}`;
  });
  afterAll(() => svc.close());

  it('key level: only oauth_consumer_key', async () => {
    const res = await fetch(
      `${svc.url}/catalog/titles/autocomplete?term=a&oauth_consumer_key=${encodeURIComponent(svc.consumer.key)}`,
    );
    expect(res.status).toBe(200);
  });

  it('signed level, header form, a query with spaces and reserved characters', async () => {
    const query: ParamList = [
      ['term', 'the & a+b *'],
      ['max_results', '2'],
    ];
    const url = `${svc.url}/catalog/titles`;
    const { header } = sign({ method: 'GET', url, query, consumer: consumer() });
    const res = await fetch(`${url}?${encodeParams(query)}`, { headers: { authorization: header } });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('signed level with the host written in upper case and the default-port form', async () => {
    const url = `${svc.url.replace('http://', 'HTTP://')}/catalog/titles`;
    const { header } = sign({ method: 'GET', url, query: [['term', 'love']], consumer: consumer() });
    const res = await fetch(`${svc.url}/catalog/titles?term=love`, { headers: { authorization: header } });
    expect(res.status).toBe(200);
  });

  it('protected level with the access token', async () => {
    const url = `${svc.url}/users/current`;
    const { header } = sign({ method: 'GET', url, consumer: consumer(), token });
    const res = await fetch(url, { headers: { authorization: header } });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('protected POST with a form body (body parameters signed once)', async () => {
    const url = `${svc.url}/users/${svc.subscriber.id}/ratings/title/actual`;
    const form: ParamList = [
      ['title_ref', titleRef],
      ['rating', '4'],
    ];
    const { header } = sign({ method: 'POST', url, form, consumer: consumer(), token });
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: header, 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeParams(form),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it('a wrong secret is refused (the check is real)', async () => {
    const url = `${svc.url}/users/current`;
    const { header } = sign({ method: 'GET', url, consumer: consumer(), token: { key: token.key, secret: 'wrong' } });
    const res = await fetch(url, { headers: { authorization: header } });
    expect(res.status).toBe(401);
  });
});
