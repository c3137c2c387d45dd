import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { catalogGeneration } from '../catalog/generation.ts';
import { recommend } from './recommender.ts';
import type { Recommendation } from '../../model/rating.ts';

/** Subscribers whose recommendations are kept at once (least recently used dropped first). */
const MAX_USERS = 1000;

/**
 * `recommend`, kept per subscriber until what it is computed from changes: the subscriber's
 * ratings (count, a weighted sum of title and rating, newest), queues (their versions), rental history (count, newest), the
 * catalog generation, and the hour (availability windows move with the clock). The fingerprint
 * is three indexed reads, against ≈ 30 ms to recompute; read from the database, so a change made
 * on another node is seen too. Pages and Atom polls of one list then cost no recomputation.
 */
export async function cachedRecommend(db: Db, userId: string, now: number, limit: number): Promise<Recommendation[]> {
  const cache = db.caches.recommendations;
  const key = `${userId} ${limit}`;
  const fingerprint = await fingerprintOf(db, userId, now);
  const held = cache.get(key);
  if (held && held.fingerprint === fingerprint) {
    cache.delete(key);
    cache.set(key, held);
    return held.list;
  }
  const list = await recommend(db, userId, now, limit);
  cache.delete(key);
  if (cache.size >= MAX_USERS) cache.delete(cache.keys().next().value!);
  cache.set(key, { fingerprint, list });
  return list;
}

async function fingerprintOf(db: Db, userId: string, now: number): Promise<string> {
  const k = db.kysely;
  const [ratings, queues, rentals, generation] = await Promise.all([
    k
      .selectFrom('ratings')
      .where('user_id', '=', userId)
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(sql<number>`rating * (title_id % 9973 + 1)`).as('sum'),
        eb.fn.max('updated').as('newest'),
      ])
      .executeTakeFirst(),
    k.selectFrom('queues').where('user_id', '=', userId).select(['kind', 'version']).orderBy('kind').execute(),
    k
      .selectFrom('rentals')
      .where('user_id', '=', userId)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated').as('newest')])
      .executeTakeFirst(),
    catalogGeneration(db),
  ]);
  return [
    `r${ratings?.n ?? 0}/${ratings?.sum ?? 0}/${ratings?.newest ?? 0}`,
    `q${queues.map((q) => `${q.kind}:${q.version}`).join(',')}`,
    `h${rentals?.n ?? 0}/${rentals?.newest ?? 0}`,
    `g${generation}`,
    `t${Math.floor(now / 3600)}`,
  ].join(' ');
}
