import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call, type CallOptions } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml, type Xml } from '../helpers/xml.ts';

const arr = (x: Xml): Xml[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** Kept queue pages (resources/queue/pages.ts) are sent only while they are what a fresh render would send. */
describe.each(DATABASES)('kept queue pages on %s', (kind) => {
  let svc: TestService;
  let movies: Array<{ id: number; from: number }>;
  let uid: string;
  let token: Credentials;

  beforeAll(async () => {
    svc = await startTestService(kind);
    const now = Math.floor(Date.now() / 1000);
    const k = svc.db.kysely;
    movies = (
      await k
        .selectFrom('availability')
        .innerJoin('titles', 'titles.id', 'availability.title_id')
        .select(['titles.id as id', 'availability.available_from as from'])
        .where('titles.type', '=', 'movie')
        .where('availability.format', '=', 'instant')
        .where('availability.available_from', '<=', now - 86_400)
        .where('availability.available_until', 'is', null)
        .orderBy('availability.available_from', 'desc')
        .limit(3)
        .execute()
    ).map((r) => ({ id: r.id, from: Number(r.from) }));
    const user = await createUser(svc.db, {
      login: `pages-${kind}@example.com`,
      password: 'pw-123456',
      firstName: 'P',
      lastName: 'User',
      acceptedTos: true,
    });
    const t = await issueAccessToken(svc.db, svc.consumer.key, user.id);
    uid = user.id;
    token = { key: t.token, secret: t.secret };
  });
  afterAll(() => svc.close());

  const as = (path: string, options: CallOptions = {}) =>
    call(svc, path, { ...options, token, ...(svc.clock.now ? { timestamp: svc.clock.now } : {}) });
  const queue = () => as(`/users/${uid}/queues/instant`);
  const availability = (body: string) =>
    arr(parseXml(body).queue.queue_item).map(
      (i) => arr(i.category).find((c) => String(c.scheme).endsWith('/queue_availability'))!.term,
    );

  it('a repeat GET sends the same bytes and ETag; a change of the queue is seen at once', async () => {
    for (const m of movies)
      expect(
        (
          await as(`/users/${uid}/queues/instant`, {
            method: 'POST',
            form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${m.id}` },
          })
        ).statusCode,
      ).toBe(201);
    const first = await queue();
    const again = await queue();
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const moved = await as(`/users/${uid}/queues/instant`, {
      method: 'POST',
      form: { title_ref: `${svc.baseUrl}/catalog/titles/movies/${movies[2]!.id}`, position: '1' },
    });
    expect(moved.statusCode).toBe(201);
    const after = await queue();
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(arr(parseXml(after.body).queue.queue_item)[0]!.id).toContain(`/${movies[2]!.id}`);
    expect((await as(`/users/${uid}/queues/instant`, { query: { output: 'json' } })).body).not.toBe(after.body);
  });

  it('an entry whose window opens after the clock reads awaiting release, and available again after', async () => {
    const latest = Math.max(...movies.map((m) => m.from));
    expect(availability((await queue()).body)).toEqual(['available now', 'available now', 'available now']);
    svc.clock.now = latest - 60;
    try {
      expect(availability((await queue()).body)).toContain('awaiting release');
    } finally {
      svc.clock.now = undefined;
    }
    expect(availability((await queue()).body)).toEqual(['available now', 'available now', 'available now']);
  });
});
