import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import type { Db } from '../../service/store/db.ts';
import type { StatementRunner } from '../../service/store/pg-prepared.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { issueAccessToken, revokeAccessToken } from '../../service/store/oauth/tokens.ts';
import { changeQueue } from '../../service/store/queue/queues.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, openTestDb, TEST_BASE, type TestService } from '../helpers/service.ts';

const SUBSCRIBERS = 8;

/**
 * Issue 27: on PostgreSQL the access-token reads of protected requests that arrive together go in
 * one statement (store/read-batcher.ts). Each request still gets its own subscriber, its own queue
 * and a token read after it arrived: a revoked token is refused in the same batch others pass.
 */
describe.each(DATABASES)('protected requests arriving together on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let svc: TestService;
  const people: Array<{ userId: string; token: Credentials; titleId: number }> = [];
  const statements: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    // PostgreSQL: the service on a counting runner, each prepared statement named by its first line.
    const run: StatementRunner = (text, values) => {
      statements.push(text.trim().split('\n')[0]!);
      return db.prepared!.run(text, values);
    };
    const counted: Db = db.prepared ? { ...db, prepared: { kysely: db.kysely, run } } : db;
    const consumer = await createConsumer(db, { name: 'Together', perSecond: 100_000, perDay: 100_000_000 });
    const app: FastifyInstance = buildServer({ db: counted, baseUrl: TEST_BASE });
    await app.ready();
    svc = { kind, db: counted, app, consumer, baseUrl: TEST_BASE, clock: { now: undefined }, close: () => app.close() };
    const titles = await instantMovieIds(db, SUBSCRIBERS);
    for (const [i, titleId] of titles.entries()) {
      const user = await createUser(db, {
        login: `together-${i}-${kind}@example.com`,
        password: 'pw-together-1',
        firstName: 'To',
        lastName: `Gether ${i}`,
      });
      const access = await issueAccessToken(db, consumer.key, user.id);
      await changeQueue(db, user.id, 'instant', undefined, () => ({
        entries: [{ title_id: titleId, position: 1, format: 'instant', added: 1, updated: 1 }],
        result: null,
      }));
      people.push({ userId: user.id, token: { key: access.token, secret: access.secret }, titleId });
    }
  });
  afterAll(async () => {
    await svc.close();
    await db.close();
    await drop();
  });

  const queueOf = (p: (typeof people)[number]) => call(svc, `/users/${p.userId}/queues/instant`, { token: p.token });

  it("answers each subscriber with their own queue and nobody else's", async () => {
    const answers = await Promise.all(people.map(queueOf));
    answers.forEach((answer, i) => {
      expect(answer.statusCode).toBe(200);
      for (const [j, other] of people.entries()) {
        expect(answer.body.includes(`/catalog/titles/movies/${other.titleId}`), `subscriber ${i}, title of ${j}`).toBe(
          i === j,
        );
      }
    });
  });

  it('answers the same token sent twice at once, both times', async () => {
    const [first, second] = await Promise.all([queueOf(people[0]!), queueOf(people[0]!)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
  });

  it('refuses a token revoked just before, while the requests beside it pass', async () => {
    const revoked = people[SUBSCRIBERS - 1]!;
    expect(await revokeAccessToken(db, revoked.token.key)).toBe(true);
    const answers = await Promise.all(people.map(queueOf));
    expect(answers.map((a) => a.statusCode)).toEqual([...people.map(() => 200).slice(1), 401]);
    expect(answers.at(-1)!.body).toContain('Invalid Or Expired Token');
  });

  // PostgreSQL only: on SQLite a token read is no round trip and is not batched.
  if (kind === 'postgres') {
    it('reads their tokens in fewer statements than requests', async () => {
      await Promise.all(people.slice(0, 3).map(queueOf)); // warm: consumer and generation read
      statements.length = 0;
      const answers = await Promise.all(people.slice(0, SUBSCRIBERS - 1).map(queueOf));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      const tokenReads = statements.filter((s) => s.includes('"access_tokens"'));
      expect(tokenReads.length, JSON.stringify(statements)).toBeLessThan(SUBSCRIBERS - 1);
    });
  }
});
