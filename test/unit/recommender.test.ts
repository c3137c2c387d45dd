import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTitles } from '../../service/store/catalog/read.ts';
import type { TitleRecord } from '../../service/model/title.ts';
import type { Db } from '../../service/store/db.ts';
import { insertRentals } from '../../service/store/subscriber/history.ts';
import { setRating } from '../../service/store/subscriber/ratings.ts';
import {
  buildProfile,
  excludedTitleIds,
  loadProfile,
  predict,
  predictRatings,
  recommend,
} from '../../service/store/recommend/recommender.ts';
import { createUser } from '../../service/store/subscriber/users.ts';
import { DATABASES, openTestDb } from '../helpers/service.ts';

describe.each(DATABASES)('recommender on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let users = 0;
  const now = Math.floor(Date.now() / 1000);
  /** Rated movies of one genre and not the other, with an average rating. */
  let comedies: number[];
  let horrors: number[];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    const only = async (genre: string, not: string) =>
      (
        await db.kysely
          .selectFrom('titles')
          .select('id')
          .where('type', '=', 'movie')
          .where('average_rating', 'is not', null)
          .where('id', 'in', db.kysely.selectFrom('title_genres').select('title_id').where('genre', '=', genre))
          .where('id', 'not in', db.kysely.selectFrom('title_genres').select('title_id').where('genre', '=', not))
          .orderBy('id')
          .limit(14)
          .execute()
      ).map((r) => r.id);
    comedies = await only('Comedy', 'Horror');
    horrors = await only('Horror', 'Comedy');
    expect(comedies.length).toBe(14);
    expect(horrors.length).toBe(14);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const newUser = async () =>
    (await createUser(db, { login: `r${users++}@example.com`, password: 'pw-123456', firstName: 'R', lastName: 'U' }))
      .id;
  const rate = async (uid: string, ids: number[], value: 1 | 2 | 3 | 4 | 5 | 'not_interested') => {
    for (const id of ids) await setRating(db, uid, id, value, now);
  };
  const titlesOf = async (ids: number[]): Promise<TitleRecord[]> => [...(await getTitles(db, ids)).values()];

  it('learns from watched history too: horror watched to the end lifts unseen horror, abandoned lowers it', async () => {
    const fan = await newUser();
    const quitter = await newUser();
    const watched = await titlesOf(horrors.slice(0, 10));
    const watch = (t: TitleRecord, fraction: number) => ({
      title_id: t.id,
      format: 'instant',
      shipped_date: null,
      returned_date: null,
      watched_date: now - 3600,
      viewed_time: Math.round((t.runtime ?? 5400) * fraction),
    });
    await insertRentals(
      db,
      fan,
      watched.map((t) => watch(t, 1)),
    );
    await insertRentals(
      db,
      quitter,
      watched.map((t) => watch(t, 0.1)),
    );
    const unseen = await titlesOf(horrors.slice(10));
    const [forFan, forQuitter] = await Promise.all([
      predictRatings(db, fan, unseen),
      predictRatings(db, quitter, unseen),
    ]);
    for (const t of unseen) {
      const average = Math.round(t.average_rating! * 10) / 10;
      expect(forFan.get(t.id)!).toBeGreaterThan(forQuitter.get(t.id)!);
      expect(forFan.get(t.id)!).toBeGreaterThanOrEqual(average);
      expect(forQuitter.get(t.id)!).toBeLessThanOrEqual(average);
    }
  });

  it('predicts the title’s own average without ratings, and recommends the best-rated titles', async () => {
    const uid = await newUser();
    const titles = await titlesOf([...comedies.slice(0, 3), ...horrors.slice(0, 3)]);
    const predicted = await predictRatings(db, uid, titles);
    for (const t of titles) expect(predicted.get(t.id)).toBe(Math.round(t.average_rating! * 10) / 10);

    const recs = await recommend(db, uid, now);
    expect(recs.length).toBeGreaterThan(25);
    expect(recs.length).toBeLessThanOrEqual(500);
    const byId = await getTitles(
      db,
      recs.map((r) => r.titleId),
    );
    for (let i = 1; i < recs.length; i++) expect(recs[i - 1]!.predicted).toBeGreaterThanOrEqual(recs[i]!.predicted);
    for (const r of recs) {
      expect(['movie', 'series']).toContain(byId.get(r.titleId)!.type);
      expect(r.predicted).toBe(Math.round(byId.get(r.titleId)!.average_rating! * 10) / 10);
    }
  });

  it('is deterministic: the same ratings give the same list in the same order', async () => {
    const a = await newUser();
    const b = await newUser();
    for (const uid of [a, b]) {
      await rate(uid, comedies.slice(0, 4), 5);
      await rate(uid, horrors.slice(0, 4), 2);
    }
    const first = await recommend(db, a, now);
    expect(await recommend(db, a, now)).toEqual(first);
    expect(await recommend(db, b, now)).toEqual(first);
  });

  it('lifts titles of a liked genre and lowers those of a disliked one', async () => {
    const fan = await newUser();
    const critic = await newUser();
    await rate(fan, comedies.slice(0, 6), 5);
    await rate(fan, horrors.slice(0, 6), 1);
    await rate(critic, comedies.slice(0, 6), 1);
    await rate(critic, horrors.slice(0, 6), 5);
    const unseen = await titlesOf([...comedies.slice(8), ...horrors.slice(8)]);
    const [forFan, forCritic] = await Promise.all([
      predictRatings(db, fan, unseen),
      predictRatings(db, critic, unseen),
    ]);
    for (const t of unseen) {
      const p = forFan.get(t.id)!;
      expect(p).toBeGreaterThanOrEqual(1);
      expect(p).toBeLessThanOrEqual(5);
      expect(Math.round(p * 10) / 10).toBe(p);
      if (comedies.includes(t.id)) {
        expect(p).toBeGreaterThan(forCritic.get(t.id)!);
        expect(p).toBeGreaterThan(t.average_rating!);
      } else {
        expect(p).toBeLessThan(forCritic.get(t.id)!);
        expect(p).toBeLessThan(t.average_rating!);
      }
    }
    // The fan's recommendations lean to comedy, the critic's to horror.
    const share = async (uid: string, genre: string) => {
      const top = (await recommend(db, uid, now)).slice(0, 25);
      const titles = await getTitles(
        db,
        top.map((r) => r.titleId),
      );
      return top.filter((r) => titles.get(r.titleId)!.genres.includes(genre)).length;
    };
    expect(await share(fan, 'Comedy')).toBeGreaterThan(await share(critic, 'Comedy'));
    expect(await share(critic, 'Horror')).toBeGreaterThan(await share(fan, 'Horror'));
  });

  it('never recommends rated (even not interested) or queued titles, nor a series with a queued season', async () => {
    const uid = await newUser();
    await rate(uid, comedies.slice(0, 3), 5);
    const before = await recommend(db, uid, now);
    const [x, y, z] = before.map((r) => r.titleId);
    await setRating(db, uid, x!, 'not_interested', now);
    await setRating(db, uid, y!, 2, now);
    const series = await db.kysely
      .selectFrom('titles')
      .select(['id', 'parent_id'])
      .where('type', '=', 'season')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db.kysely
      .insertInto('queue_items')
      .values([
        { user_id: uid, kind: 'instant', title_id: z!, position: 1, format: 'instant', added: now, updated: now },
        { user_id: uid, kind: 'disc', title_id: series.id, position: 1, format: 'DVD', added: now, updated: now },
      ])
      .execute();
    const excluded = await excludedTitleIds(db, uid);
    for (const id of [x, y, z, series.id, series.parent_id, ...comedies.slice(0, 3)])
      expect(excluded.has(id!)).toBe(true);
    const after = (await recommend(db, uid, now)).map((r) => r.titleId);
    for (const id of excluded) expect(after).not.toContain(id);
    expect(after.length).toBeGreaterThan(0);
  });

  it('learns genre and people affinities from mean-centred scores (pure model)', async () => {
    const uid = await newUser();
    await rate(uid, comedies.slice(0, 2), 5);
    await rate(uid, horrors.slice(0, 2), 1);
    const profile = await loadProfile(db, uid);
    expect(profile.count).toBe(4);
    expect(profile.mean).toBe(3);
    expect(profile.genres.get('Comedy')!).toBeGreaterThan(0);
    expect(profile.genres.get('Horror')!).toBeLessThan(0);
    expect(profile.liked).toEqual(comedies.slice(0, 2));
    const [t] = await titlesOf([comedies[10]!]);
    // Its people, when liked, lift it further; when disliked, lower it.
    const liked = {
      ...profile,
      people: new Map([
        [1, 1],
        [2, 1],
      ]),
    };
    const disliked = {
      ...profile,
      people: new Map([
        [1, -1],
        [2, -1],
      ]),
    };
    expect(predict(liked, t!, [1, 2])).toBeGreaterThan(predict(profile, t!, [1, 2]));
    expect(predict(disliked, t!, [1, 2])).toBeLessThan(predict(profile, t!, [1, 2]));
    // Extreme scores stay on the scale.
    const extreme = buildProfile(
      [{ titleId: t!.id, score: 5, weight: 100 }],
      new Map([[t!.id, { ...t!, average_rating: 1 }]]),
      new Map(),
    );
    expect(predict(extreme, { ...t!, average_rating: 4.9 })).toBe(5);
  });
});
