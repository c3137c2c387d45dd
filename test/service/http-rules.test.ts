import { gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../service/xml/json.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { linksByTitle, parseXml } from '../helpers/xml.ts';
import { firstMovieId } from '../helpers/catalog-picks.ts';

/** The cross-cutting HTTP rules of CONTRACT.md §1, §4 and §6, seen from a client. */
describe.each(DATABASES)('HTTP rules on %s', (kind) => {
  let svc: TestService;
  let moviePath: string;
  beforeAll(async () => {
    svc = await startTestService(kind);
    moviePath = `/catalog/titles/movies/${await firstMovieId(svc.db)}`;
  });
  afterAll(() => svc.close());

  /** A request signed as `signAs` but sent with `method` (to show what the signature covers). */
  const signedAs = (signAs: string, method: string, url: string, headers: Record<string, string> = {}) => {
    const host = new URL(svc.baseUrl).host;
    return svc.app.inject({
      method: method as 'GET',
      url,
      headers: { host, authorization: authHeader(svc.consumer, signAs, `http://${host}${url}`), ...headers },
    });
  };

  const statusOf = (res: LightMyRequestResponse) => parseXml(res.body).status;

  // ---- output=json ----------------------------------------------------------------------------

  it('output=json answers application/json with the root element as the single top-level key', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight', output: 'json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(JSON.parse(res.body))).toEqual(['catalog_titles']);
  });

  it('output=json turns attributes into keys and text-only elements into strings', async () => {
    const doc = JSON.parse((await call(svc, moviePath, { query: { output: 'json' } })).body).catalog_title;
    const xml = parseXml((await call(svc, moviePath)).body).catalog_title;
    expect(doc.id).toBe(xml.id);
    expect(doc.title).toEqual({ short: xml.title.short, regular: xml.title.regular });
    expect(doc.box_art).toEqual({ small: xml.box_art.small, medium: xml.box_art.medium, large: xml.box_art.large });
    expect(typeof doc.release_year).toBe('string');
    expect(doc.average_rating).toBe(xml.average_rating);
  });

  it('output=json keeps a single child an object and makes repeated children an array', async () => {
    const one = JSON.parse(
      (await call(svc, '/catalog/titles', { query: { term: 'dark knight', max_results: '1', output: 'json' } })).body,
    ).catalog_titles;
    expect(Array.isArray(one.catalog_title)).toBe(false);
    expect(one.catalog_title.id).toMatch(/\/catalog\/titles\/\w+\/\d+$/);
    expect(Array.isArray(one.catalog_title.link)).toBe(true); // every title has many links
    const two = JSON.parse(
      (await call(svc, '/catalog/titles', { query: { term: 'dark knight', max_results: '2', output: 'json' } })).body,
    ).catalog_titles;
    expect(Array.isArray(two.catalog_title)).toBe(true);
    expect(two.catalog_title).toHaveLength(2);
  });

  it('output=json nests an expanded resource under its link, beside the link attributes', async () => {
    const doc = JSON.parse(
      (await call(svc, moviePath, { query: { expand: 'synopsis', output: 'json' } })).body,
    ).catalog_title;
    const synopsis = doc.link.find((l: { title: string }) => l.title === 'synopsis');
    expect(synopsis.href).toBe(`${svc.baseUrl}${moviePath}/synopsis`);
    expect(typeof synopsis.synopsis).toBe('string');
    expect(synopsis.synopsis.length).toBeGreaterThan(0);
  });

  it('output=json puts the text of an element that also has attributes under content', () => {
    // No catalog element has both attributes and text, so the rule is shown on the mapping itself.
    const json = JSON.parse(
      toJson({
        name: 'root',
        children: [
          { name: 'rating', attrs: { scale: 5 }, text: '4.5' },
          { name: 'plain', text: 'x' },
        ],
      }),
    );
    expect(json).toEqual({ root: { rating: { scale: '5', content: '4.5' }, plain: 'x' } });
  });

  it('errors asked for with output=json come back as JSON {"status": …}', async () => {
    const cases = [
      await call(svc, '/catalog/titles', { query: { output: 'json' } }),
      await call(svc, '/catalog/nowhere', { query: { output: 'json' } }),
      await call(svc, '/catalog/titles', { method: 'DELETE', query: { output: 'json' } }),
      await call(svc, '/catalog/titles', { auth: 'none', query: { term: 'x', output: 'json' } }),
      await call(svc, '/catalog/titles', { query: { term: 'x'.repeat(5000), output: 'json' } }),
    ];
    for (const res of cases) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = JSON.parse(res.body);
      expect(Object.keys(body)).toEqual(['status']);
      expect(body.status.status_code).toBe(String(res.statusCode));
      expect(typeof body.status.message).toBe('string');
    }
    expect(cases.map((r) => r.statusCode)).toEqual([400, 404, 405, 401, 414]);
  });

  // ---- ETag and 304 -----------------------------------------------------------------------------

  it('every response carries an ETag, errors included', async () => {
    const responses = [
      await call(svc, '/catalog'),
      await call(svc, moviePath),
      await call(svc, '/catalog/titles'),
      await call(svc, '/catalog/nowhere'),
      await call(svc, '/catalog/titles', { method: 'DELETE' }),
      await call(svc, '/catalog/titles', { auth: 'none', query: { term: 'x' } }),
      await call(svc, '/catalog/titles', { query: { term: 'x'.repeat(5000) } }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 400, 404, 405, 401, 414]);
    for (const res of responses) expect(res.headers.etag).toMatch(/^"[^"]+"$/);
  });

  it('the same resource keeps its ETag and a different one has another', async () => {
    const a = await call(svc, moviePath);
    const b = await call(svc, moviePath);
    const c = await call(svc, '/catalog');
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(c.headers.etag).not.toBe(a.headers.etag);
  });

  it('If-None-Match with the current ETag is 304 with an empty body', async () => {
    const first = await call(svc, moviePath);
    const res = await call(svc, moviePath, { headers: { 'if-none-match': first.headers.etag as string } });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(first.headers.etag);
  });

  it('If-None-Match matches a weak W/ tag and a tag inside a list', async () => {
    const etag = (await call(svc, moviePath)).headers.etag as string;
    const weak = await call(svc, moviePath, { headers: { 'if-none-match': `W/${etag}` } });
    expect(weak.statusCode).toBe(304);
    expect(weak.body).toBe('');
    const list = await call(svc, moviePath, { headers: { 'if-none-match': `"stale-one", ${etag}, "stale-two"` } });
    expect(list.statusCode).toBe(304);
    expect(list.body).toBe('');
  });

  it('If-None-Match with a different ETag is 200 with the full body and the current ETag', async () => {
    const plain = await call(svc, moviePath);
    const res = await call(svc, moviePath, { headers: { 'if-none-match': '"not-the-current-tag"' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(plain.body);
    expect(res.headers.etag).toBe(plain.headers.etag);
  });

  it('a 304 still says which header it varies on', async () => {
    const first = await call(svc, moviePath, { headers: { 'accept-encoding': 'gzip' } });
    const res = await call(svc, moviePath, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag as string },
    });
    expect(res.statusCode).toBe(304);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it('If-None-Match applies to a POST overridden to GET, as to the GET it stands for', async () => {
    const etag = (await call(svc, '/catalog/titles', { query: { term: 'dark knight' } })).headers.etag as string;
    const byHeader = await call(svc, '/catalog/titles', {
      method: 'POST',
      form: { term: 'dark knight' },
      headers: { 'x-http-method-override': 'GET', 'if-none-match': etag },
    });
    expect(byHeader.statusCode).toBe(304);
    expect(byHeader.body).toBe('');
    const byParam = await call(svc, '/catalog/titles', {
      method: 'POST',
      query: { method: 'get' },
      form: { term: 'dark knight' },
      headers: { 'if-none-match': etag },
    });
    expect(byParam.statusCode).toBe(304);
  });

  it('a GET naming another verb is refused (a GET never writes), not answered 304', async () => {
    const etag = (await call(svc, '/catalog/titles', { query: { term: 'dark knight' } })).headers.etag as string;
    const res = await call(svc, '/catalog/titles', {
      query: { term: 'dark knight' },
      headers: { 'x-http-method-override': 'DELETE', 'if-none-match': etag },
    });
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status.message).toMatch(/only a POST may name another method/);
  });

  it("HEAD answers the GET's status and headers without a body", async () => {
    const get = await call(svc, moviePath);
    const head = await call(svc, moviePath, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    const missing = await call(svc, '/catalog/titles/movies/99999999', { method: 'HEAD' });
    expect(missing.statusCode).toBe(404);
  });

  it('If-None-Match never turns an error into a 304', async () => {
    const err = await call(svc, '/catalog/nowhere');
    const again = await call(svc, '/catalog/nowhere', { headers: { 'if-none-match': err.headers.etag as string } });
    expect(again.statusCode).toBe(404);
    expect(statusOf(again).status_code).toBe('404');
  });

  // ---- gzip -------------------------------------------------------------------------------------

  it('Accept-Encoding: gzip compresses the body, which decompresses to the plain one', async () => {
    const plain = await call(svc, '/catalog/titles', { query: { term: 'dark knight' } });
    const zipped = await call(svc, '/catalog/titles', {
      query: { term: 'dark knight' },
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('gzip also applies to a status body', async () => {
    const err = await call(svc, '/catalog/nowhere', { headers: { 'accept-encoding': 'deflate, gzip' } });
    expect(err.headers['content-encoding']).toBe('gzip');
    expect(parseXml(gunzipSync(err.rawPayload).toString('utf8')).status.status_code).toBe('404');
  });

  it('Accept-Encoding: gzip;q=0 is answered uncompressed', async () => {
    const refused = await call(svc, '/catalog', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(parseXml(refused.body).catalog.link.length).toBeGreaterThan(0);
  });

  // ---- method override --------------------------------------------------------------------------

  it('a POST with X-HTTP-Method-Override: GET is handled as a GET (signed as POST)', async () => {
    const get = await call(svc, '/catalog/titles', { query: { term: 'dark knight' } });
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      query: { term: 'dark knight' },
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(get.body);
  });

  it('a POST with the query parameter method=GET is handled as a GET', async () => {
    const res = await call(svc, '/catalog/titles', { method: 'POST', query: { term: 'dark knight', method: 'GET' } });
    expect(res.statusCode).toBe(200);
    expect(Number(parseXml(res.body).catalog_titles.number_of_results)).toBeGreaterThan(0);
  });

  it('an overridden POST may carry its parameters in a form body', async () => {
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      form: { term: 'dark knight', max_results: '1' },
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).catalog_titles.catalog_title).toHaveLength(1);
  });

  it('the override is case-insensitive', async () => {
    const res = await call(svc, '/catalog', { method: 'POST', headers: { 'x-http-method-override': 'get' } });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).catalog.link.length).toBeGreaterThan(0);
  });

  it('the signature covers the transport method, not the overriding one', async () => {
    const url = '/catalog/titles?term=dark%20knight';
    const signedAsPost = await signedAs('POST', 'POST', url, { 'x-http-method-override': 'GET' });
    expect(signedAsPost.statusCode).toBe(200);
    const signedAsGet = await signedAs('GET', 'POST', url, { 'x-http-method-override': 'GET' });
    expect(signedAsGet.statusCode).toBe(401);
    expect(statusOf(signedAsGet)).toMatchObject({ status_code: '401', message: 'Invalid Signature' });
  });

  it('an override value other than GET, PUT or DELETE is 400 "method is invalid"', async () => {
    const byHeader = await call(svc, '/catalog/titles', {
      method: 'POST',
      query: { term: 'x' },
      headers: { 'x-http-method-override': 'PATCH' },
    });
    expect(byHeader.statusCode).toBe(400);
    expect(statusOf(byHeader)).toMatchObject({ status_code: '400', message: 'method is invalid' });
    const byParam = await call(svc, '/catalog/titles', { method: 'POST', query: { term: 'x', method: 'FROB' } });
    expect(byParam.statusCode).toBe(400);
    expect(statusOf(byParam)).toMatchObject({ status_code: '400', message: 'method is invalid' });
  });

  it('an override to a verb the resource lacks is 405 with Allow', async () => {
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      query: { term: 'x' },
      headers: { 'x-http-method-override': 'DELETE' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(statusOf(res).status_code).toBe('405');
  });

  it('a POST without an override on a read-only resource is 405', async () => {
    const res = await call(svc, '/catalog/titles', { method: 'POST', query: { term: 'x' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  // ---- versions ---------------------------------------------------------------------------------

  it('v=1.0 and v=1.5 are accepted', async () => {
    for (const v of ['1.0', '1.5']) {
      const res = await call(svc, moviePath, { query: { v } });
      expect(res.statusCode, v).toBe(200);
      expect(parseXml(res.body).catalog_title.id).toBe(`${svc.baseUrl}${moviePath}`);
    }
  });

  it('any other v is 400 "v is invalid"', async () => {
    for (const v of ['2.0', '1', '1.50', 'latest', '']) {
      const res = await call(svc, moviePath, { query: { v } });
      expect(res.statusCode, v).toBe(400);
      expect(statusOf(res)).toMatchObject({ status_code: '400', message: 'v is invalid' });
    }
  });

  // ---- exact URLs: 404, 405 ---------------------------------------------------------------------

  it('an unknown path is 404 with a status body', async () => {
    const res = await call(svc, '/nowhere/at/all');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(statusOf(res)).toMatchObject({ status_code: '404', message: 'Resource not found' });
  });

  it('near-misses of real paths are 404: /catalog/title, /catalog/titles/movies, a double slash', async () => {
    for (const path of [
      '/catalog/title',
      '/catalog/titles/movies',
      '/catalog//titles',
      `/catalog/titles//movies/${moviePath.split('/').pop()}`,
      '/Catalog/Titles',
      `${moviePath}.xml`,
    ]) {
      const res = await call(svc, path, { query: { term: 'x' } });
      expect(res.statusCode, path).toBe(404);
      expect(statusOf(res).status_code, path).toBe('404');
    }
  });

  it('one trailing slash is tolerated, two are not', async () => {
    const one = await call(svc, '/catalog/titles/', { query: { term: 'dark knight' } });
    expect(one.statusCode).toBe(200);
    expect(Number(parseXml(one.body).catalog_titles.number_of_results)).toBeGreaterThan(0);
    expect((await call(svc, `${moviePath}/`)).statusCode).toBe(200);
    expect((await call(svc, '/catalog/titles//', { query: { term: 'dark knight' } })).statusCode).toBe(404);
  });

  it('a path that is not valid percent-encoding is 404 with a status body', async () => {
    for (const path of ['/catalog/titles/movies/%ZZ', '/catalog/%E0%A4%A', '/catalog/people/%']) {
      const res = await call(svc, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(statusOf(res), path).toMatchObject({ status_code: '404', message: 'Resource not found' });
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    }
    const zipped = await call(svc, '/catalog/titles/movies/%ZZ', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(parseXml(gunzipSync(zipped.rawPayload).toString('utf8')).status.status_code).toBe('404');
  });

  it('an over-long path segment is 404 with a status body', async () => {
    const res = await call(svc, `/catalog/people/${'1'.repeat(1000)}`);
    expect(res.statusCode).toBe(404);
    expect(statusOf(res)).toMatchObject({ status_code: '404', message: 'Resource not found' });
  });

  it('an over-long path segment in a URL over 4096 bytes is 414, like any long URL', async () => {
    const res = await call(svc, `/catalog/people/${'1'.repeat(5000)}`);
    expect(res.statusCode).toBe(414);
    expect(statusOf(res)).toMatchObject({
      status_code: '414',
      message: 'Request URI too long; resend as POST with a method override',
    });
  });

  it('a wrong verb is 405 with an Allow header and a status body', async () => {
    for (const method of ['DELETE', 'PUT']) {
      const res = await call(svc, '/catalog/titles', { method, query: { term: 'x' } });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('GET');
      expect(statusOf(res)).toMatchObject({ status_code: '405', message: 'Method not allowed' });
    }
  });

  // ---- size limits: 413, 414 --------------------------------------------------------------------

  it('a form body over 1 MiB is 413 with a status body', async () => {
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      form: { term: 'x'.repeat(1024 * 1024 + 1) },
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(statusOf(res)).toMatchObject({ status_code: '413', message: 'Request body too large' });
  });

  it('a form body just under 1 MiB is accepted', async () => {
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      form: { term: 'dark knight', pad: 'x'.repeat(1000 * 1000) },
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a URL over 4096 bytes is 414 with a status body', async () => {
    const expand = Array(500).fill('synopsis').join(',');
    const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight', expand } });
    expect(res.raw.req.url!.length).toBeGreaterThan(4096);
    expect(res.statusCode).toBe(414);
    expect(statusOf(res)).toMatchObject({
      status_code: '414',
      message: 'Request URI too long; resend as POST with a method override',
    });
  });

  it('a URL of exactly 4096 bytes is not refused for its length', async () => {
    const path = '/catalog/titles?term=dark%20knight&pad=';
    const url = path + 'x'.repeat(4096 - path.length);
    expect(Buffer.byteLength(url)).toBe(4096);
    const host = new URL(svc.baseUrl).host;
    const res = await svc.app.inject({
      method: 'GET',
      url,
      headers: { host, authorization: authHeader(svc.consumer, 'GET', `http://${host}${url}`) },
    });
    expect(res.statusCode).toBe(200);
  });

  it('the same long query sent as a POST with an override is answered 200', async () => {
    const expand = Array(500).fill('synopsis').join(',');
    const res = await call(svc, '/catalog/titles', {
      method: 'POST',
      form: { term: 'dark knight', expand },
      headers: { 'x-http-method-override': 'GET' },
    });
    expect(res.statusCode).toBe(200);
    const first = parseXml(res.body).catalog_titles.catalog_title[0];
    expect(typeof linksByTitle(first).synopsis.synopsis).toBe('string');
  });

  // ---- paging -----------------------------------------------------------------------------------

  it.each([
    ['max_results', '0'],
    ['max_results', '-1'],
    ['max_results', 'abc'],
    ['max_results', '2.5'],
    ['start_index', '-1'],
    ['start_index', 'x'],
    ['start_index', '1e3'],
  ])('%s=%s is 400 sub_code 120', async (name, value) => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight', [name]: value } });
    expect(res.statusCode).toBe(400);
    expect(statusOf(res)).toMatchObject({ status_code: '400', sub_code: '120', message: `${name} is invalid` });
  });

  it('a start_index at or beyond number_of_results is 400 sub_code 120; the last index is fine', async () => {
    const total = Number(
      parseXml((await call(svc, '/catalog/titles', { query: { term: 'dark knight' } })).body).catalog_titles
        .number_of_results,
    );
    expect(total).toBeGreaterThan(0);
    for (const start of [total, total + 10]) {
      const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight', start_index: String(start) } });
      expect(res.statusCode, String(start)).toBe(400);
      expect(statusOf(res)).toMatchObject({ status_code: '400', sub_code: '120', message: 'start_index is invalid' });
    }
    const last = await call(svc, '/catalog/titles', { query: { term: 'dark knight', start_index: String(total - 1) } });
    expect(last.statusCode).toBe(200);
    expect(parseXml(last.body).catalog_titles.catalog_title).toHaveLength(1);
  });

  it('a huge start_index is 400 sub_code 120, never a database error', async () => {
    for (const start of ['2147483648', '99999999999999999999']) {
      const res = await call(svc, '/catalog/titles', { query: { term: 'dark knight', start_index: start } });
      expect(res.statusCode, start).toBe(400);
      expect(statusOf(res).sub_code).toBe('120');
    }
  });

  it('a huge max_results is capped, not refused', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'the', max_results: '99999999999' } });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).catalog_titles.results_per_page).toBe('100');
  });

  it('start_index=0 on an empty result is an empty page, not an error', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: 'zzqxjvwk', start_index: '0' } });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).catalog_titles).toMatchObject({ number_of_results: '0', start_index: '0' });
  });

  // ---- status bodies and robustness -------------------------------------------------------------

  it('every status body has status_code equal to the HTTP status', async () => {
    const responses = [
      await call(svc, '/catalog/titles'),
      await call(svc, '/catalog/titles', { query: { term: 'x', start_index: 'x' } }),
      await call(svc, '/catalog/titles', { auth: 'none', query: { term: 'x' } }),
      await call(svc, '/catalog/nowhere'),
      await call(svc, '/catalog/titles', { method: 'DELETE' }),
      await call(svc, '/catalog/titles', {
        method: 'POST',
        form: { term: 'x'.repeat(1024 * 1024 + 1) },
        headers: { 'x-http-method-override': 'GET' },
      }),
      await call(svc, '/catalog/titles', { query: { term: 'x'.repeat(5000) } }),
    ];
    expect(new Set(responses.map((r) => r.statusCode))).toEqual(new Set([400, 401, 404, 405, 413, 414]));
    for (const res of responses) {
      expect(res.body.startsWith('<?xml version="1.0" standalone="yes"?><status>')).toBe(true);
      expect(statusOf(res).status_code).toBe(String(res.statusCode));
    }
  });

  it('a garbage Authorization header is a 4xx status body, never a 500', async () => {
    const garbage = [
      'OAuth',
      'OAuth ,,,,',
      'OAuth oauth_consumer_key',
      'OAuth oauth_consumer_key="%ZZ", oauth_signature="%E0%A4%A"',
      'OAuth oauth_consumer_key="unterminated',
      'OAuth realm="x", oauth_consumer_key="\\"',
      `OAuth oauth_consumer_key="${svc.consumer.key}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="NaN", oauth_nonce="", oauth_signature="x"`,
      `OAuth oauth_consumer_key="${svc.consumer.key}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="99999999999999999999999", oauth_nonce="n", oauth_signature="x"`,
      'Basic dXNlcjpwYXNz',
      'Bearer ' + 'a'.repeat(3000),
      '\u00ff\u00fe\u00fd',
    ];
    for (const authorization of garbage) {
      const res = await call(svc, '/catalog/titles', {
        auth: 'none',
        query: { term: 'x' },
        headers: { authorization },
      });
      expect(res.statusCode, authorization).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, authorization).toBeLessThan(500);
      expect(statusOf(res).status_code).toBe(String(res.statusCode));
    }
  });

  it('strange search terms are answered with results or a 400 that says which parameter is wrong', async () => {
    const terms = [
      'x'.repeat(5000),
      'a '.repeat(2500),
      '*',
      '"',
      "' OR 1=1 --",
      "'; DROP TABLE titles; --",
      '\\',
      '%',
      '_',
      ':*',
      '!',
      '&|',
      'a:* & b',
      'NEAR(a b)',
      'title:dark',
      '^dark',
      '-dark',
      'dark OR knight',
      '()',
      '😀',
      'ʰ',
      '\u0301',
      'ﷺ',
      'İstanbul',
      '日本語',
      'שלום',
      '\uFEFF',
      'a\u0000b',
      'ǅ',
      'e\u0301'.repeat(300),
      '\uFFFD',
      'x²',
      '١٢٣',
    ];
    for (const term of terms) {
      for (const path of ['/catalog/titles', '/catalog/people']) {
        const res = await call(svc, path, {
          method: 'POST',
          form: { term },
          headers: { 'x-http-method-override': 'GET' },
        });
        const label = `${path} ${JSON.stringify(term.slice(0, 20))}`;
        const body = parseXml(res.body);
        if (res.statusCode === 200) {
          const list = path === '/catalog/titles' ? body.catalog_titles : body.people;
          expect(Number(list?.number_of_results), label).toBeGreaterThanOrEqual(0);
        } else {
          expect(res.statusCode, label).toBe(400);
          expect(body.status.message, label).toMatch(/^term is (invalid|required)$/);
        }
      }
      if (term.length < 1000) {
        const auto = await call(svc, '/catalog/titles/autocomplete', { auth: 'key', query: { term } });
        const label = `autocomplete ${JSON.stringify(term)}`;
        if (auto.statusCode === 200) expect(parseXml(auto.body).autocomplete, label).toBeDefined();
        else expect(parseXml(auto.body).status.message, label).toMatch(/^term is (invalid|required)$/);
      }
    }
  });

  it('a query that is not valid UTF-8 or not valid percent-encoding is not a 500', async () => {
    const host = new URL(svc.baseUrl).host;
    for (const qs of ['term=%ED%A0%80', 'term=%E0%A4%A', 'term=%', 'term=%ZZ', 'term=%FF%FE', '%=%&&=&term']) {
      const url = `/catalog/titles?${qs}`;
      const res = await svc.app.inject({
        method: 'GET',
        url,
        headers: { host, authorization: authHeader(svc.consumer, 'GET', `http://${host}/catalog/titles`) },
      });
      expect(res.statusCode, qs).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, qs).toBeLessThan(500);
      expect(statusOf(res).status_code).toBe(String(res.statusCode));
    }
  });

  it('a SQL-looking term is just words to search for', async () => {
    const res = await call(svc, '/catalog/titles', { query: { term: "' OR 1=1 --" } });
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).catalog_titles.number_of_results).toBe('0');
    const still = await call(svc, '/catalog/titles', { query: { term: 'dark knight' } });
    expect(Number(parseXml(still.body).catalog_titles.number_of_results)).toBeGreaterThan(0);
  });

  it('an expand of 2000 commas, or of junk, is ignored', async () => {
    const plain = await call(svc, moviePath);
    for (const expand of [','.repeat(2000), ' , ,nonsense,,'.repeat(50), '\u0000,%,😀']) {
      const res = await call(svc, moviePath, {
        method: 'POST',
        form: { expand },
        headers: { 'x-http-method-override': 'GET' },
      });
      expect(res.statusCode, JSON.stringify(expand.slice(0, 20))).toBe(200);
      expect(parseXml(res.body).catalog_title.id).toBe(parseXml(plain.body).catalog_title.id);
    }
  });

  it('a form body whose content type carries a charset parameter is read as a form', async () => {
    const host = new URL(svc.baseUrl).host;
    const url = '/catalog/titles';
    const withCharset = await svc.app.inject({
      method: 'POST',
      url,
      headers: {
        host,
        'x-http-method-override': 'GET',
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        authorization: authHeader(svc.consumer, 'POST', `http://${host}${url}`, { term: 'dark knight' }),
      },
      payload: 'term=dark%20knight',
    });
    expect(withCharset.statusCode).toBe(200);
    expect(Number(parseXml(withCharset.body).catalog_titles.number_of_results)).toBeGreaterThan(0);
  });

  it('a body that is not a form (JSON, text, XML, even malformed) does not break an overridden request', async () => {
    const host = new URL(svc.baseUrl).host;
    const url = '/catalog/titles';
    for (const [type, payload] of [
      ['application/json', '{"term":'],
      ['text/plain', '\u0000\u0001'],
      ['application/xml', '<a>'],
    ] as const) {
      const res = await svc.app.inject({
        method: 'POST',
        url: `${url}?term=x`,
        headers: {
          host,
          'x-http-method-override': 'GET',
          'content-type': type,
          authorization: authHeader(svc.consumer, 'POST', `http://${host}${url}?term=x`),
        },
        payload,
      });
      expect(res.statusCode, type).toBe(200);
    }
  });

  it('odd numeric ids are 404, never a 500', async () => {
    for (const id of ['0', '-1', '1.5', '1e9', '99999999999999999999', '00000000000000000001', '%00', '%20', 'NaN']) {
      const res = await call(svc, `/catalog/titles/movies/${id}`);
      expect(res.statusCode, id).toBe(404);
    }
  });
});
