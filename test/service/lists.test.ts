import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createList } from '../../service/store/subscriber/lists.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { movieIds } from '../helpers/catalog-picks.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { childNames, linksByTitle, parseXml, type Xml } from '../helpers/xml.ts';

describe.each(DATABASES)('title lists on %s', (kind) => {
  let svc: TestService;
  let now: number;
  let movies: number[];
  let a: TestSubscriber;
  let b: TestSubscriber;
  let aLists: number[];
  let bList: number;

  beforeAll(async () => {
    svc = await startTestService(kind);
    now = Math.floor(Date.now() / 1000);
    movies = await movieIds(svc.db, 20);
    a = await subscriber();
    b = await subscriber();
    aLists = [
      await createList(svc.db, a.uid, 'Favorites', movies.slice(0, 7), now - 100),
      await createList(svc.db, a.uid, 'Date night', [movies[12]!, movies[10]!, movies[11]!], now - 50),
    ];
    bList = await createList(svc.db, b.uid, 'Not yours', movies.slice(15, 20), now);
  });
  afterAll(() => svc.close());

  const subscriber = () => newSubscriber(svc, { firstName: 'L', lastName: 'User', acceptedTos: true });
  const as = (who: { token: Credentials }, path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token: who.token });
  const titleId = (item: Xml) => Number(/\/(\d+)$/.exec(item.id)![1]);

  it('lists the subscriber’s lists with their ids, names, sizes and links', async () => {
    const res = await as(a, `/users/${a.uid}/lists`);
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'lists')).toEqual([
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'list',
    ]);
    const root = parseXml(res.body).lists;
    expect(root.number_of_results).toBe('2');
    expect(root.url_template).toBe(`${svc.baseUrl}/users/${a.uid}/lists?{-join|&|start_index|max_results}`);
    const base = `${svc.baseUrl}/users/${a.uid}/lists`;
    expect(root.list.map((l: Xml) => [l.id, l.name, l.number_of_items])).toEqual([
      [`${base}/${aLists[0]}`, 'Favorites', '7'],
      [`${base}/${aLists[1]}`, 'Date night', '3'],
    ]);
    expect(root.list[0].link).toEqual([
      { href: `${base}/${aLists[0]}`, rel: 'http://schemas.netflix.com/list', title: 'Favorites' },
    ]);
    expect(childNames(res.body, 'list')).toEqual(['id', 'name', 'number_of_items', 'link']);

    const empty = await subscriber();
    const none = parseXml((await as(empty, `/users/${empty.uid}/lists`)).body).lists;
    expect(none.number_of_results).toBe('0');
    expect(none.list).toBeUndefined();
  });

  it('serves one list with its titles in order, as title-like list items', async () => {
    const res = await as(a, `/users/${a.uid}/lists/${aLists[1]}`);
    expect(res.statusCode).toBe(200);
    expect(childNames(res.body, 'list')).toEqual([
      'id',
      'name',
      'number_of_items',
      'link',
      'url_template',
      'number_of_results',
      'start_index',
      'results_per_page',
      'list_item',
    ]);
    const list = parseXml(res.body).list;
    expect(list.id).toBe(`${svc.baseUrl}/users/${a.uid}/lists/${aLists[1]}`);
    expect(list.name).toBe('Date night');
    expect(list.number_of_results).toBe('3');
    expect(list.url_template).toBe(
      `${svc.baseUrl}/users/${a.uid}/lists/${aLists[1]}?{-join|&|start_index|max_results|expand}`,
    );
    expect(list.list_item.map(titleId)).toEqual([movies[12], movies[10], movies[11]]);
    const item = list.list_item[0];
    expect(item.id).toBe(`${svc.baseUrl}/catalog/titles/movies/${movies[12]}`);
    expect(item.title.regular).toBeTruthy();
    expect(item.box_art.large).toBeTruthy();
    expect(linksByTitle(item).cast.href).toBe(`${item.id}/cast`);
  });

  it('expands titles of list items', async () => {
    const list = parseXml(
      (await as(a, `/users/${a.uid}/lists/${aLists[0]}`, { query: { expand: 'synopsis' } })).body,
    ).list;
    expect(linksByTitle(list.list_item[0]).synopsis.synopsis).toBeTruthy();
  });

  it('pages a list and refuses bad paging with sub_code 120', async () => {
    const page = parseXml(
      (await as(a, `/users/${a.uid}/lists/${aLists[0]}`, { query: { start_index: '2', max_results: '3' } })).body,
    ).list;
    expect(page.list_item.map(titleId)).toEqual(movies.slice(2, 5));
    expect([page.number_of_results, page.start_index, page.results_per_page]).toEqual(['7', '2', '3']);
    const tail = parseXml(
      (await as(a, `/users/${a.uid}/lists/${aLists[0]}`, { query: { start_index: '6' } })).body,
    ).list;
    expect(tail.list_item.map(titleId)).toEqual([movies[6]]);
    expect(
      parseXml(
        (await as(a, `/users/${a.uid}/lists`, { query: { max_results: '1', start_index: '1' } })).body,
      ).lists.list.map((l: Xml) => l.name),
    ).toEqual(['Date night']);
    const bad: Array<[string, Record<string, string>]> = [
      [`/users/${a.uid}/lists/${aLists[0]}`, { start_index: '7' }],
      [`/users/${a.uid}/lists/${aLists[0]}`, { max_results: '0' }],
      [`/users/${a.uid}/lists/${aLists[0]}`, { start_index: 'x' }],
      [`/users/${a.uid}/lists`, { start_index: '2' }],
      [`/users/${a.uid}/lists`, { max_results: '-3' }],
    ];
    for (const [path, query] of bad) {
      const res = await as(a, path, { query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(parseXml(res.body).status.sub_code).toBe('120');
    }
  });

  it('answers 404 for another subscriber’s list and for unknown ids', async () => {
    for (const id of [String(bList), '999999', '0', 'favorites', '99999999999']) {
      const res = await as(a, `/users/${a.uid}/lists/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(parseXml(res.body).status.message).toBe('Resource not found');
    }
    expect((await as(b, `/users/${b.uid}/lists/${bList}`)).statusCode).toBe(200);
  });

  it('is protected: another subscriber’s uid is 403, no access token 400', async () => {
    for (const path of [`/users/${b.uid}/lists`, `/users/${b.uid}/lists/${bList}`]) {
      const res = await as(a, path);
      expect(res.statusCode).toBe(403);
      expect(parseXml(res.body).status.message).toBe('User ID access token mismatch');
    }
    expect((await call(svc, `/users/${a.uid}/lists`)).statusCode).toBe(400);
  });

  it('is read-only', async () => {
    const res = await as(a, `/users/${a.uid}/lists`, { method: 'POST', form: { name: 'New' } });
    expect(res.statusCode).toBe(405);
  });

  it('answers JSON', async () => {
    const body = JSON.parse((await as(a, `/users/${a.uid}/lists`, { query: { output: 'json' } })).body);
    expect(body.lists.list).toHaveLength(2);
    expect(body.lists.list[1].name).toBe('Date night');
  });
});
