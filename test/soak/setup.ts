import { changeQueue } from '../../service/store/queue/queues.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Db } from '../../service/store/db.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { instantMovieIds } from '../helpers/catalog-picks.ts';
import type { Credentials } from '../helpers/oauth-client.ts';

/** Entries each soak subscriber's instant queue starts with (what its queue GET reads). */
export const QUEUE_ENTRIES = 50;

export interface SoakAccounts {
  consumer: Credentials;
  subscribers: Array<{ id: string; token: Credentials }>;
  /** One title per connection, for that connection's writes; never in a queue at the start. */
  writeTitles: number[];
  /** Movies to read. */
  titles: number[];
  /** Words of the catalog's titles (searched), and their 2–4-letter prefixes (autocompleted). */
  words: string[];
  prefixes: string[];
}

/**
 * A consumer without a practical quota, `count` subscribers with tokens and a 50-entry instant
 * queue each, a title per connection to add and remove, and the catalog's own title words.
 */
export async function soakAccounts(db: Db, count: number, connections: number): Promise<SoakAccounts> {
  const consumer = await createConsumer(db, { name: 'Soak', perSecond: 1_000_000, perDay: 1_000_000_000 });
  const movies = await instantMovieIds(db, connections + QUEUE_ENTRIES);
  if (movies.length < connections + QUEUE_ENTRIES)
    throw new Error(`the catalog streams ${movies.length} movies; the soak needs ${connections + QUEUE_ENTRIES}`);
  const queued = movies.slice(connections);
  const now = Math.floor(Date.now() / 1000);
  const subscribers = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(db, {
      login: `soak${i}@example.com`,
      password: 'pw-soak-1',
      firstName: 'Soak',
      lastName: String(i),
    });
    const access = await issueAccessToken(db, consumer.key, user.id);
    await changeQueue(db, user.id, 'instant', undefined, () => ({
      entries: queued.map((title_id, p) => ({
        title_id,
        position: p + 1,
        format: 'instant',
        added: now,
        updated: now,
      })),
      result: null,
    }));
    subscribers.push({ id: user.id, token: { key: access.token, secret: access.secret } });
  }
  return {
    consumer,
    subscribers,
    writeTitles: movies.slice(0, connections),
    titles: queued.concat(await movieSample(db, 500)),
    ...(await titleWords(db)),
  };
}

async function movieSample(db: Db, count: number): Promise<number[]> {
  const rows = await db.kysely.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id').execute();
  const step = Math.max(1, Math.floor(rows.length / count));
  return rows.filter((_, i) => i % step === 0).map((r) => r.id);
}

/** Distinct words (3+ letters) of the movies' titles, and every 2–4-letter prefix of them. */
async function titleWords(db: Db): Promise<{ words: string[]; prefixes: string[] }> {
  const rows = await db.kysely.selectFrom('titles').select('title').where('type', '=', 'movie').execute();
  const words = new Set<string>();
  for (const r of rows) for (const w of r.title.toLowerCase().split(/[^a-z]+/)) if (w.length >= 3) words.add(w);
  const prefixes = new Set<string>();
  for (const w of words) for (let n = 2; n <= Math.min(4, w.length); n++) prefixes.add(w.slice(0, n));
  return { words: [...words].sort(), prefixes: [...prefixes].sort() };
}
