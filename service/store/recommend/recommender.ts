import type { SelectQueryBuilder } from 'kysely';
import { getCredits, getTitles } from '../catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import type { Db } from '../db.ts';
import { historySignals } from './history-signals.ts';
import type { SignalSource, TasteSignal } from './taste.ts';
import { ratedTitleIds, recentRatings } from '../subscriber/ratings.ts';
import type { Database } from '../schema.ts';
import type { Recommendation } from '../../model/rating.ts';

/**
 * The recommender: predicted ratings and recommendations from what a subscriber has told us, in a
 * bounded amount of work per request (never a pass over the whole catalog).
 *
 * Model. Each signal is a (title, score 1–5, weight). From the signals: the subscriber's mean
 * score; an offset (how they rate against the crowd's `average_rating`, shrunk toward 0); a genre
 * affinity per genre (their mean-centred scores of titles in it, shrunk toward 0); a people
 * affinity per director and leading cast member likewise. A title's prediction is its average
 * rating plus the offset, the mean affinity of its genres the subscriber has rated, and a damped sum of its people's
 * affinities, clamped to 1.0–5.0 with one decimal. Without signals it is the title's average.
 *
 * Candidates for recommendations are movies and series from four bounded queries: the best-rated
 * titles in the best-liked genres, titles of the best-liked people, similars of the best-liked
 * titles, and the catalog's best-rated titles as a fallback; titles rated (any value) or queued
 * (either queue, either part) are left out. A few hundred candidates are scored, at most.
 */

/** The most recent ratings the model learns from. */
const MAX_SIGNALS = 1000;

/** Explicit ratings: stars as they are; "not interested" as a weak, low score. */
export const ratingSignals: SignalSource = async (db, userId) =>
  (await recentRatings(db, userId, MAX_SIGNALS)).map((r) =>
    r.value === 'not_interested'
      ? { titleId: r.titleId, score: 1.5, weight: 0.5 }
      : { titleId: r.titleId, score: r.value, weight: 1 },
  );

/**
 * Where signals come from, in order of precedence (a later source does not override a title an
 * earlier one gave): explicit ratings, then watched and rented history.
 */
export const SIGNAL_SOURCES: readonly SignalSource[] = [ratingSignals, historySignals];

/** Shrinkage: how many signals' worth of "no opinion" each estimate starts with. */
const PRIOR = { offset: 3, genre: 2, person: 1.5 } as const;
const WEIGHTS = { genre: 1, people: 0.6 } as const;
/** Leading cast members taken per title (directors: all). */
const CAST_PER_TITLE = 5;
const LIMITS = { likedGenres: 3, likedPeople: 40, likedTitles: 50, perSource: 200, candidates: 600 } as const;

export interface TasteProfile {
  /** Number of signals the profile was built from (0: predictions are the titles' averages). */
  count: number;
  mean: number;
  offset: number;
  genres: Map<string, number>;
  people: Map<number, number>;
  /** Titles scored 4 or more, best first: their similars are candidates. */
  liked: number[];
}

export const EMPTY_PROFILE: TasteProfile = {
  count: 0,
  mean: 3,
  offset: 0,
  genres: new Map(),
  people: new Map(),
  liked: [],
};

/** The people of a title that carry taste: its directors and leading cast. */
export type PeopleOf = Map<number, number[]>;

async function peopleOf(db: Db, titleIds: number[]): Promise<PeopleOf> {
  const [cast, directors] = await Promise.all([getCredits(db, titleIds, 'cast'), getCredits(db, titleIds, 'director')]);
  const out: PeopleOf = new Map();
  for (const id of titleIds) {
    const ids = [...(directors.get(id) ?? []), ...(cast.get(id) ?? []).slice(0, CAST_PER_TITLE)].map((p) => p.id);
    out.set(id, [...new Set(ids)]);
  }
  return out;
}

/** The profile from signals over known titles (pure: the unit of the model). */
export function buildProfile(
  signals: readonly TasteSignal[],
  titles: ReadonlyMap<number, TitleRecord>,
  people: PeopleOf,
): TasteProfile {
  const seen = new Set<number>();
  const used = signals.filter((s) => {
    if (seen.has(s.titleId) || !titles.has(s.titleId) || !(s.weight > 0)) return false;
    seen.add(s.titleId);
    return true;
  });
  if (used.length === 0) return EMPTY_PROFILE;
  const totalWeight = used.reduce((sum, s) => sum + s.weight, 0);
  const mean = used.reduce((sum, s) => sum + s.weight * s.score, 0) / totalWeight;
  const offset =
    used.reduce((sum, s) => sum + s.weight * (s.score - (titles.get(s.titleId)!.average_rating ?? mean)), 0) /
    (totalWeight + PRIOR.offset);

  const genreSums = new Map<string, { sum: number; weight: number }>();
  const personSums = new Map<number, { sum: number; weight: number }>();
  const add = <K>(map: Map<K, { sum: number; weight: number }>, key: K, s: TasteSignal) => {
    const acc = map.get(key) ?? { sum: 0, weight: 0 };
    acc.sum += s.weight * (s.score - mean);
    acc.weight += s.weight;
    map.set(key, acc);
  };
  for (const s of used) {
    for (const g of titles.get(s.titleId)!.genres) add(genreSums, g, s);
    for (const p of people.get(s.titleId) ?? []) add(personSums, p, s);
  }
  const shrink = <K>(map: Map<K, { sum: number; weight: number }>, prior: number) =>
    new Map([...map].map(([k, v]) => [k, v.sum / (v.weight + prior)] as [K, number]));
  const liked = used
    .filter((s) => s.score >= 4)
    .sort((a, b) => b.score * b.weight - a.score * a.weight || a.titleId - b.titleId)
    .map((s) => s.titleId);
  return {
    count: used.length,
    mean,
    offset,
    genres: shrink(genreSums, PRIOR.genre),
    people: shrink(personSums, PRIOR.person),
    liked,
  };
}

/** One title's predicted rating under a profile: 1.0–5.0, one decimal. */
export function predict(profile: TasteProfile, t: TitleRecord, people: readonly number[] = []): number {
  if (profile.count === 0) return round1(t.average_rating ?? 3);
  const base = t.average_rating ?? profile.mean;
  const known = t.genres.map((g) => profile.genres.get(g)).filter((a): a is number => a !== undefined);
  const genreTerm = known.length === 0 ? 0 : known.reduce((a, b) => a + b, 0) / known.length;
  const matched = people.map((p) => profile.people.get(p)).filter((a): a is number => a !== undefined);
  const peopleTerm =
    matched.length === 0 ? 0 : clamp(matched.reduce((a, b) => a + b, 0) / Math.sqrt(matched.length), -1.5, 1.5);
  return round1(base + profile.offset + WEIGHTS.genre * genreTerm + WEIGHTS.people * peopleTerm);
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function round1(x: number): number {
  return Math.round(clamp(x, 1, 5) * 10) / 10;
}

/** The subscriber's taste profile, from every signal source. */
export async function loadProfile(db: Db, userId: string): Promise<TasteProfile> {
  const lists = await Promise.all(SIGNAL_SOURCES.map((source) => source(db, userId)));
  const signals = lists.flat();
  if (signals.length === 0) return EMPTY_PROFILE;
  const ids = [...new Set(signals.map((s) => s.titleId))];
  const [titles, people] = await Promise.all([getTitles(db, ids), peopleOf(db, ids)]);
  return buildProfile(signals, titles, people);
}

/** Predicted ratings of the given titles for the subscriber. */
export async function predictRatings(
  db: Db,
  userId: string,
  titles: readonly TitleRecord[],
  profile?: TasteProfile,
): Promise<Map<number, number>> {
  const p = profile ?? (await loadProfile(db, userId));
  const people =
    p.people.size > 0
      ? await peopleOf(
          db,
          titles.map((t) => t.id),
        )
      : new Map<number, number[]>();
  return new Map(titles.map((t) => [t.id, predict(p, t, people.get(t.id))]));
}

/**
 * The subscriber's recommendations, best first (predicted rating, then average rating, then id):
 * movies and series not rated and not queued, at most `limit`.
 */
export async function recommend(db: Db, userId: string, now: number, limit = 500): Promise<Recommendation[]> {
  const [profile, excluded] = await Promise.all([loadProfile(db, userId), excludedTitleIds(db, userId)]);
  const ids = (await candidateIds(db, profile)).filter((id) => !excluded.has(id)).slice(0, LIMITS.candidates);
  const titles = [...(await getTitles(db, ids)).values()].filter(
    (t) => t.type === 'series' || t.formats.some((f) => f.available_until === null || f.available_until > now),
  );
  const predicted = await predictRatings(db, userId, titles, profile);
  return titles
    .map((t) => ({ t, predicted: predicted.get(t.id)! }))
    .sort(
      (a, b) => b.predicted - a.predicted || (b.t.average_rating ?? 0) - (a.t.average_rating ?? 0) || a.t.id - b.t.id,
    )
    .slice(0, limit)
    .map(({ t, predicted: p }) => ({ titleId: t.id, predicted: p }));
}

const RECOMMENDABLE = ['movie', 'series'] as const;

/** Candidate ids from the bounded sources, in source order, without duplicates. */
async function candidateIds(db: Db, profile: TasteProfile): Promise<number[]> {
  const k = db.kysely;
  const top = <K>(map: Map<K, number>, n: number) =>
    [...map]
      .filter(([, a]) => a > 0)
      .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
      .slice(0, n)
      .map(([key]) => key);
  const genres = top(profile.genres, LIMITS.likedGenres);
  const people = top(profile.people, LIMITS.likedPeople);
  const liked = profile.liked.slice(0, LIMITS.likedTitles);
  const none = Promise.resolve([] as Array<{ id: number }>);
  const [byGenre, byPeople, bySimilars, best] = await Promise.all([
    genres.length === 0
      ? none
      : bestRated(
          k
            .selectFrom('title_genres')
            .innerJoin('titles', 'titles.id', 'title_genres.title_id')
            .where('title_genres.genre', 'in', genres),
        ),
    people.length === 0
      ? none
      : bestRated(
          k
            .selectFrom('credits')
            .innerJoin('titles', 'titles.id', 'credits.title_id')
            .where('credits.person_id', 'in', people),
        ),
    liked.length === 0
      ? none
      : k
          .selectFrom('similars')
          .innerJoin('titles', 'titles.id', 'similars.similar_id')
          .select(['titles.id', 'similars.ordinal', 'similars.title_id'])
          .where('similars.title_id', 'in', liked)
          .where('titles.type', 'in', RECOMMENDABLE)
          .orderBy('similars.ordinal')
          .orderBy('similars.title_id')
          .limit(LIMITS.perSource)
          .execute(),
    k
      .selectFrom('titles')
      .select('id')
      .where('type', 'in', RECOMMENDABLE)
      .where('average_rating', 'is not', null)
      .orderBy('average_rating', 'desc')
      .orderBy('id')
      .limit(LIMITS.perSource)
      .execute(),
  ]);
  return [...new Set([...byGenre, ...byPeople, ...bySimilars, ...best].map((r) => Number(r.id)))];
}

/**
 * The best-rated movies and series among `linked` (titles joined to a link table and filtered by
 * it): the genre and people candidate sources.
 */
function bestRated(linked: SelectQueryBuilder<Database, 'titles' | 'title_genres' | 'credits', object>) {
  return linked
    .select(['titles.id', 'titles.average_rating'])
    .distinct()
    .where('titles.type', 'in', RECOMMENDABLE)
    .where('titles.average_rating', 'is not', null)
    .orderBy('titles.average_rating', 'desc')
    .orderBy('titles.id')
    .limit(LIMITS.perSource)
    .execute();
}

/**
 * Titles never recommended: those rated (any value, "not interested" included) and those queued,
 * with what contains them (a queued season or disc rules out its series or movie).
 */
export async function excludedTitleIds(db: Db, userId: string): Promise<Set<number>> {
  const [rated, queued] = await Promise.all([
    ratedTitleIds(db, userId),
    db.kysely.selectFrom('queue_items').select('title_id').where('user_id', '=', userId).execute(),
  ]);
  const out = new Set(rated);
  let frontier = [...new Set(queued.map((r) => Number(r.title_id)))];
  for (const id of frontier) out.add(id);
  // disc → movie or season → series: two hops at most.
  for (let hop = 0; hop < 2 && frontier.length > 0; hop++) {
    const rows = await db.kysely
      .selectFrom('titles')
      .select(['parent_id', 'series_id'])
      .where('id', 'in', frontier)
      .execute();
    const next = new Set<number>();
    for (const r of rows) {
      for (const id of [r.parent_id, r.series_id]) if (id !== null && !out.has(id)) next.add(id);
    }
    for (const id of next) out.add(id);
    frontier = [...next];
  }
  return out;
}
