import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, rotateFeedToken } from '../../service/store/subscriber/users.ts';
import { call } from '../helpers/request.ts';
import { newSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';

describe.each(DATABASES)('feeds on %s', (kind) => {
  let svc: TestService;
  let user: TestSubscriber;
  let token: { key: string; secret: string };
  let titleIds: number[];

  beforeAll(async () => {
    svc = await startTestService(kind);
    user = await newSubscriber(svc);
    token = user.token;
    titleIds = await instantMovieIds(svc.db, 2);
    for (const id of titleIds) {
      const res = await call(svc, `/users/${user.uid}/queues/instant`, {
        method: 'POST',
        token,
        form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${id}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => svc.close());

  const feedLinks = async () => {
    const res = await call(svc, `/users/${user.uid}/feeds`, { token });
    expect(res.statusCode).toBe(200);
    return parseXml(res.body).resource.link as Array<{ href: string; rel: string; title: string }>;
  };
  const unsigned = (href: string, headers: Record<string, string> = {}) => {
    const u = new URL(href);
    return svc.app.inject({ method: 'GET', url: u.pathname + u.search, headers: { host: u.host, ...headers } });
  };

  it('lists a link per feed, each carrying the feed token and consumer key', async () => {
    const links = await feedLinks();
    expect(links.map((l) => l.rel.replace('http://schemas.netflix.com/feed.', ''))).toEqual([
      'queues.instant',
      'queues.disc',
      'at_home',
      'recommendations',
      'rental_history',
      'rental_history.watched',
      'rental_history.shipped',
      'rental_history.returned',
    ]);
    for (const l of links) {
      const q = new URL(l.href).searchParams;
      expect(q.get('feed_token')).toBe(user.feedToken);
      expect(q.get('oauth_consumer_key')).toBe(svc.consumer.key);
    }
  });

  it('serves the instant queue as Atom without a signature, one entry per queued title', async () => {
    const href = (await feedLinks()).find((l) => l.rel.endsWith('feed.queues.instant'))!.href;
    const res = await unsigned(href);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    const entries = [...res.body.matchAll(/<entry>.*?<\/entry>/g)].map((m) => m[0]);
    expect(entries).toHaveLength(titleIds.length);
    expect(entries[0]).toMatch(/<updated>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/updated>/);
    expect(entries[0]).toContain(`href="${svc.baseUrl}/catalog/titles/movies/${titleIds[0]}"`);
  });

  it('answers POX with the feed token when Atom is not asked for', async () => {
    const href = new URL((await feedLinks())[0]!.href);
    href.searchParams.delete('output');
    const res = await unsigned(href.toString());
    expect(res.statusCode).toBe(200);
    expect(parseXml(res.body).queue.queue_item).toHaveLength(titleIds.length);
  });

  it('refuses a wrong feed token, a token for another user, and a rotated token', async () => {
    const href = new URL((await feedLinks())[0]!.href);
    const wrong = new URL(href);
    wrong.searchParams.set('feed_token', 'x'.repeat(24));
    expect((await unsigned(wrong.toString())).statusCode).toBe(403);
    const other = await createUser(svc.db, {
      login: `other-${kind}@example.com`,
      password: 'pw-other-1',
      firstName: 'O',
      lastName: 'T',
    });
    const otherPath = new URL(href.toString().replace(user.uid, other.id));
    expect((await unsigned(otherPath.toString())).statusCode).toBe(403);
    await rotateFeedToken(svc.db, user.uid);
    const stale = await unsigned(href.toString());
    expect(stale.statusCode).toBe(403);
    expect(parseXml(stale.body).status.message).toBe('Invalid feed token');
    user.feedToken = (await feedLinks())[0]!.href.match(/feed_token=([^&]+)/)![1]!;
  });

  it('a feed token opens only feeds: the user resource still needs OAuth', async () => {
    const res = await unsigned(
      `${svc.baseUrl}/users/${user.uid}?feed_token=${user.feedToken}&oauth_consumer_key=${svc.consumer.key}`,
    );
    expect(res.statusCode).toBe(400);
    expect(parseXml(res.body).status.message).toBe('Missing Required Access Token');
  });
});
