import { describe, it, expect } from 'vitest';
import { formDecode, parseForm, percentDecode, percentEncode } from '../../service/oauth/percent.ts';
import {
  baseStringUri,
  hmacSha1,
  normalizeParameters,
  signatureBaseString,
  signaturesEqual,
} from '../../service/oauth/signature.ts';
import { collectOAuthParams, parseAuthorizationHeader } from '../../service/oauth/params.ts';

describe('percentEncode', () => {
  it('keeps only the unreserved set', () => {
    expect(percentEncode('AZaz09-._~')).toBe('AZaz09-._~');
    expect(percentEncode(' ')).toBe('%20');
    expect(percentEncode('*')).toBe('%2A');
    expect(percentEncode("!'()")).toBe('%21%27%28%29');
    expect(percentEncode('+&=/?#%')).toBe('%2B%26%3D%2F%3F%23%25');
  });

  it('encodes UTF-8 bytes with upper-case hex', () => {
    expect(percentEncode('é')).toBe('%C3%A9');
    expect(percentEncode('€')).toBe('%E2%82%AC');
    expect(percentEncode('😀')).toBe('%F0%9F%98%80');
    expect(percentEncode('\u00ff')).toBe('%C3%BF');
    expect(percentEncode('\n')).toBe('%0A');
  });

  it('does not throw on a lone surrogate', () => {
    expect(percentEncode('\ud800')).toBe('%EF%BF%BD');
  });
});

describe('decoding', () => {
  it('round-trips', () => {
    for (const s of ['Dark Knight', 'a+b', '€ 😀 ~*', '100%']) expect(percentDecode(percentEncode(s))).toBe(s);
  });

  it('accepts lower-case hex and leaves malformed escapes literal', () => {
    expect(percentDecode('%c3%a9')).toBe('é');
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%zz%4')).toBe('%zz%4');
  });

  it('treats + as a space only in form decoding', () => {
    expect(percentDecode('a+b')).toBe('a+b');
    expect(formDecode('a+b%2B')).toBe('a b+');
  });

  it('parses forms keeping order, duplicates and bare names', () => {
    expect(parseForm('b=2&a=1&a=0&c&&d=')).toEqual([
      ['b', '2'],
      ['a', '1'],
      ['a', '0'],
      ['c', ''],
      ['d', ''],
    ]);
  });
});

describe('baseStringUri', () => {
  it('lower-cases scheme and host and drops default ports', () => {
    expect(baseStringUri('HTTP', 'Example.COM:80', '/a')).toBe('http://example.com/a');
    expect(baseStringUri('https', 'example.com:443', '/a')).toBe('https://example.com/a');
    expect(baseStringUri('http', 'example.com:443', '/a')).toBe('http://example.com:443/a');
  });

  it('keeps other ports and the path as sent', () => {
    expect(baseStringUri('http', 'example.com:8080', '/A/b%20c')).toBe('http://example.com:8080/A/b%20c');
    expect(baseStringUri('http', '[::1]:8080', '/x')).toBe('http://[::1]:8080/x');
    expect(baseStringUri('http', '[::1]:80', '/x')).toBe('http://[::1]/x');
  });

  it('drops the query and supplies an empty path', () => {
    expect(baseStringUri('http', 'example.com', '/r?x=1')).toBe('http://example.com/r');
    expect(baseStringUri('http', 'example.com', '')).toBe('http://example.com/');
  });
});

describe('signature', () => {
  it('matches the historical known-good vector', () => {
    const params: Array<[string, string]> = [
      ['term', 'Dark Knight'],
      ['count', '2'],
      ['oauth_consumer_key', 'apiKey001'],
      ['oauth_token', 'accessToken003'],
      ['oauth_nonce', '1234'],
      ['oauth_timestamp', '1355850443'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_version', '1.0'],
    ];
    const uri = baseStringUri('http', 'api-public.netflix.com', '/catalog/titles');
    const base = signatureBaseString('get', uri, params);
    expect(hmacSha1(base, 'sharedSecret002', 'accessSecret004')).toBe('0JAoaqt6oz6TJx8N+06XmhPjcOs=');
    // oauth_signature never enters the base string.
    expect(signatureBaseString('GET', uri, [...params, ['oauth_signature', 'x']])).toBe(base);
  });

  it('builds the RFC 5849 §3.4.1.1 example base string exactly', () => {
    const header = `OAuth realm="Example",
                oauth_consumer_key="9djdj82h48djs9d2",
                oauth_token="kkk9d7dh3k39sjv7",
                oauth_signature_method="HMAC-SHA1",
                oauth_timestamp="137131201",
                oauth_nonce="7d8f3e4a",
                oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"`;
    const collected = collectOAuthParams({
      method: 'POST',
      scheme: 'http',
      host: 'example.com',
      path: '/request',
      query: parseForm('b5=%3D%253D&a3=a&c%40=&a2=r%20b'),
      body: parseForm('c2&a3=2+q'),
      authorization: header,
    });
    expect(collected.oauth.get('oauth_signature')).toBe('bYT5CMsGcbgUdFHObYMEfcx6bsw=');
    const base = signatureBaseString('POST', baseStringUri('http', 'example.com', '/request'), collected.all);
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q' +
        '%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_' +
        'key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m' +
        'ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk' +
        '9d7dh3k39sjv7',
    );
  });

  it('sorts by encoded name, then encoded value, keeping duplicates', () => {
    expect(
      normalizeParameters([
        ['b', '2'],
        ['a', 'z'],
        ['a', ' '],
        ['A', '1'],
        ['a', 'a'],
      ]),
    ).toBe('A=1&a=%20&a=a&a=z&b=2');
  });

  it('keys HMAC-SHA1 with encoded secrets and an empty token secret', () => {
    // RFC 5849 §3.4.2's key is "consumer&token"; with no token the key ends in "&".
    expect(hmacSha1('x', 'c s', '')).toBe(hmacSha1('x', 'c s'));
    expect(hmacSha1('x', 'a&b', '')).not.toBe(hmacSha1('x', 'a', 'b'));
  });

  it('compares signatures in constant time and by length first', () => {
    expect(signaturesEqual('abc=', 'abc=')).toBe(true);
    expect(signaturesEqual('abc=', 'abd=')).toBe(false);
    expect(signaturesEqual('abc', 'abc=')).toBe(false);
    expect(signaturesEqual('', '')).toBe(true);
  });
});

describe('parseAuthorizationHeader', () => {
  it('decodes values and drops realm', () => {
    expect(parseAuthorizationHeader('OAuth realm="x", oauth_consumer_key="a%20b",oauth_nonce="n%2Bm"')).toEqual([
      ['oauth_consumer_key', 'a b'],
      ['oauth_nonce', 'n+m'],
    ]);
  });

  it('accepts a case-insensitive scheme, bare values and empty values', () => {
    expect(parseAuthorizationHeader('oauth oauth_token="", oauth_version=1.0')).toEqual([
      ['oauth_token', ''],
      ['oauth_version', '1.0'],
    ]);
    expect(parseAuthorizationHeader('OAuth')).toEqual([]);
  });

  it('ignores other schemes', () => {
    expect(parseAuthorizationHeader('Basic dXNlcjpwYXNz')).toBeNull();
    expect(parseAuthorizationHeader('OAuthx a="b"')).toBeNull();
  });
});

describe('collectOAuthParams', () => {
  it('merges header, query and body and reports conflicting oauth parameters', () => {
    const collected = collectOAuthParams({
      method: 'GET',
      scheme: 'http',
      host: 'h',
      path: '/',
      query: [
        ['oauth_nonce', '1'],
        ['term', 'x'],
        ['oauth_consumer_key', 'k'],
        ['term', 'x'],
      ],
      body: [['oauth_nonce', '2']],
      authorization: 'OAuth oauth_consumer_key="k"',
    });
    // The repeated identical oauth_consumer_key counts once; ordinary duplicates stay.
    expect(collected.all).toEqual([
      ['oauth_consumer_key', 'k'],
      ['oauth_nonce', '1'],
      ['term', 'x'],
      ['term', 'x'],
      ['oauth_nonce', '2'],
    ]);
    expect(collected.oauth.get('oauth_consumer_key')).toBe('k');
    expect(collected.conflicts).toEqual(['oauth_nonce']);
  });
});
