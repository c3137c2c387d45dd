/**
 * A realistic, reproducible activity for a subscriber of the demo catalog: about two years of
 * rentals (instant watches, including one evening-by-evening run through a season, and discs by
 * mail, two of them at home now) and three named title lists. Given the same catalog and `now`, the
 * plan is always the same; every title was available in its format on the day it was rented.
 */
import type { Db } from '../../store/db.ts';
import { hasRentals, insertRentals, type NewRental } from '../../store/subscriber/history.ts';
import { createList, hasLists } from '../../store/subscriber/lists.ts';
import { hashString, Rng } from '../rng.ts';

const SEED = hashString('marquee-demo-subscriber');
const DAY = 86_400;
const HOUR = 3_600;
const HORIZON_DAYS = 730;

const MOVIE_WATCHES = 16;
const BINGE_EPISODES = 6;
const RETURNED_DISCS = 16;
const DISCS_AT_HOME = 2;

const TASTES = [
  'Drama',
  'Comedy',
  'Thrillers',
  'Sci-Fi & Fantasy',
  'Action & Adventure',
  'Romance',
  'Animation',
  'Documentary',
];

/** What the planner needs of a title. */
export interface CandidateTitle {
  id: number;
  type: string;
  release_year: number | null;
  runtime: number | null;
  average_rating: number | null;
  /** The season of an episode. */
  parent_id: number | null;
  sequence: number | null;
  genres: string[];
  formats: Array<{ format: string; available_from: number; available_until: number | null }>;
}

export interface ActivityPlan {
  rentals: NewRental[];
  lists: Array<{ name: string; created: number; titleIds: number[] }>;
}

/** The plan for `now` over `catalog` (pure; deterministic). */
export function planSubscriberActivity(catalog: readonly CandidateTitle[], now: number): ActivityPlan {
  const rng = new Rng(SEED);
  const today = Math.floor(now / DAY) * DAY;
  const movies = catalog.filter((t) => t.type === 'movie').sort((a, b) => a.id - b.id);
  const tastes = rng.sample(TASTES, 3);
  const liked = (t: CandidateTitle) => t.genres.some((g) => tastes.includes(g));
  const used = new Set<number>();
  const offered = (t: CandidateTitle, format: string, at: number, until = at) =>
    t.formats.some(
      (f) => f.format === format && f.available_from <= at && (f.available_until === null || f.available_until > until),
    );

  // One shuffled order per kind of pick, scanned for the first title that fits: cheap and stable.
  const pickRng = rng.fork('picks');
  const order = pickRng.shuffle(movies.slice());
  const pick = (fits: (t: CandidateTitle) => boolean): CandidateTitle | undefined => {
    const wantLiked = pickRng.chance(0.7);
    return (
      order.find((t) => !used.has(t.id) && (!wantLiked || liked(t)) && fits(t)) ??
      order.find((t) => !used.has(t.id) && fits(t))
    );
  };

  const rentals: NewRental[] = [];
  const timeRng = rng.fork('times');
  const evening = (day: number) => day + 19 * HOUR + timeRng.int(0, 4 * HOUR + 1800);

  // Instant watches of films on evenings spread over the two years.
  const watchDays = Array.from({ length: MOVIE_WATCHES }, () => timeRng.int(2, HORIZON_DAYS - 1)).sort((a, b) => b - a);
  for (const daysAgo of watchDays) {
    const watched = evening(today - daysAgo * DAY);
    const t = pick((c) => offered(c, 'instant', watched));
    if (!t) continue;
    used.add(t.id);
    rentals.push(instantWatch(t, watched, timeRng));
  }

  // A season's first episodes, one an evening.
  const bingeStart = today - timeRng.int(60, 400) * DAY;
  const season = firstEpisodes(catalog, rng.fork('binge'), (eps) =>
    eps.every((e, i) => offered(e, 'instant', bingeStart + i * DAY, bingeStart + (i + 1) * DAY)),
  );
  season?.forEach((e, i) => {
    used.add(e.id);
    rentals.push(instantWatch(e, evening(bingeStart + i * DAY), timeRng, 0.95));
  });

  // Discs by mail: shipped in the afternoon, kept a few days, returned; the last two are still out.
  const shipDays = Array.from({ length: RETURNED_DISCS }, () => timeRng.int(20, HORIZON_DAYS - 5)).sort(
    (a, b) => b - a,
  );
  for (const daysAgo of shipDays) {
    const shipped = today - daysAgo * DAY + 14 * HOUR + timeRng.int(0, 3 * HOUR);
    const returned = shipped + timeRng.int(3, 12) * DAY + timeRng.int(-4 * HOUR, 4 * HOUR);
    const disc = pickDisc(pick, offered, shipped, returned, timeRng);
    if (!disc) continue;
    used.add(disc.t.id);
    rentals.push(discRental(disc, shipped, returned));
  }
  for (let i = 0; i < DISCS_AT_HOME; i++) {
    const shipped = today - timeRng.int(1 + i * 4, 4 + i * 4) * DAY + 14 * HOUR + timeRng.int(0, 3 * HOUR);
    const at = Math.min(shipped, now - HOUR);
    const disc = pickDisc(pick, offered, at, now, timeRng);
    if (!disc) continue;
    used.add(disc.t.id);
    rentals.push(discRental(disc, at, null));
  }

  // Three lists: favourites from what was seen, a date-night list and classics still to see.
  const listRng = rng.fork('lists');
  const seen = new Set(rentals.map((r) => r.title_id));
  const seenMovies = movies
    .filter((m) => seen.has(m.id))
    .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || a.id - b.id);
  const unseen = listRng.shuffle(movies.filter((m) => !seen.has(m.id)));
  const inList = new Set<number>();
  const take = (pool: readonly CandidateTitle[], n: number) => {
    const out = pool.filter((t) => !inList.has(t.id)).slice(0, n);
    for (const t of unseen) {
      if (out.length >= n) break;
      if (!inList.has(t.id) && !out.includes(t)) out.push(t);
    }
    for (const t of out) inList.add(t.id);
    return out.map((t) => t.id);
  };
  const listDay = () => today - listRng.int(20, 600) * DAY + 20 * HOUR + listRng.int(0, 3 * HOUR);
  const lists = [
    {
      name: 'Favorites',
      created: listDay(),
      titleIds: take(listRng.shuffle(seenMovies.slice(0, 12)), listRng.int(6, 10)),
    },
    {
      name: 'Date night',
      created: listDay(),
      titleIds: take(
        unseen.filter(
          (m) => m.genres.includes('Romance') || (m.genres.includes('Comedy') && (m.average_rating ?? 0) >= 3.5),
        ),
        listRng.int(5, 12),
      ),
    },
    {
      name: 'Classics to see',
      created: listDay(),
      titleIds: take(
        unseen
          .filter((m) => m.release_year !== null && m.release_year <= 1970)
          .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || a.id - b.id)
          .slice(0, 30),
        listRng.int(5, 12),
      ),
    },
  ];
  return { rentals, lists };
}

function instantWatch(t: CandidateTitle, watched: number, rng: Rng, complete = 0.8): NewRental {
  const runtime = t.runtime ?? 5_400;
  const share = rng.chance(complete) ? 0.9 + rng.next() * 0.1 : 0.15 + rng.next() * 0.45;
  return {
    title_id: t.id,
    format: 'instant',
    shipped_date: null,
    returned_date: null,
    watched_date: watched,
    viewed_time: Math.round(runtime * share),
  };
}

/** A film offered on disc from `shipped` to `until`, and the format sent (DVD mostly, some Blu-ray). */
/** A disc shipped at `shipped`, back at `returned` (null while at home); discs are never "watched". */
function discRental(disc: { t: CandidateTitle; format: string }, shipped: number, returned: number | null): NewRental {
  return {
    title_id: disc.t.id,
    format: disc.format,
    shipped_date: shipped,
    returned_date: returned,
    watched_date: null,
    viewed_time: null,
  };
}

function pickDisc(
  pick: (fits: (t: CandidateTitle) => boolean) => CandidateTitle | undefined,
  offered: (t: CandidateTitle, format: string, at: number, until?: number) => boolean,
  shipped: number,
  until: number,
  rng: Rng,
): { t: CandidateTitle; format: string } | undefined {
  const preferBluRay = rng.chance(0.25);
  const t = pick((c) => offered(c, 'DVD', shipped, until) || offered(c, 'Blu-ray', shipped, until));
  if (!t) return undefined;
  const dvd = offered(t, 'DVD', shipped, until);
  const bluRay = offered(t, 'Blu-ray', shipped, until);
  return { t, format: bluRay && (preferBluRay || !dvd) ? 'Blu-ray' : 'DVD' };
}

/** The first episodes of some season that `fits`, in order. */
function firstEpisodes(
  catalog: readonly CandidateTitle[],
  rng: Rng,
  fits: (eps: CandidateTitle[]) => boolean,
): CandidateTitle[] | undefined {
  const bySeason = new Map<number, CandidateTitle[]>();
  for (const t of catalog) {
    if (t.type !== 'program' || t.parent_id === null) continue;
    let list = bySeason.get(t.parent_id);
    if (!list) bySeason.set(t.parent_id, (list = []));
    list.push(t);
  }
  const seasons = rng.shuffle([...bySeason.keys()].sort((a, b) => a - b));
  for (const s of seasons) {
    const eps = bySeason
      .get(s)!
      .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0) || a.id - b.id)
      .slice(0, BINGE_EPISODES);
    if (eps.length === BINGE_EPISODES && fits(eps)) return eps;
  }
  return undefined;
}

/** The catalog as the planner sees it: films and episodes with their genres and formats. */
export async function loadCandidates(db: Db): Promise<CandidateTitle[]> {
  const k = db.kysely;
  const kinds = ['movie', 'program'] as const;
  const [rows, genres, formats] = await Promise.all([
    k
      .selectFrom('titles')
      .select(['id', 'type', 'release_year', 'runtime', 'average_rating', 'parent_id', 'sequence'])
      .where('type', 'in', kinds)
      .orderBy('id')
      .execute(),
    k
      .selectFrom('title_genres')
      .select(['title_id', 'genre'])
      .where('title_id', 'in', k.selectFrom('titles').select('id').where('type', '=', 'movie'))
      .orderBy('title_id')
      .orderBy('genre')
      .execute(),
    k
      .selectFrom('availability')
      .select(['title_id', 'format', 'available_from', 'available_until'])
      .where('title_id', 'in', k.selectFrom('titles').select('id').where('type', 'in', kinds))
      .orderBy('title_id')
      .orderBy('format')
      .execute(),
  ]);
  const byId = new Map<number, CandidateTitle>(rows.map((r) => [r.id, { ...r, genres: [], formats: [] }]));
  for (const g of genres) byId.get(g.title_id)?.genres.push(g.genre);
  for (const f of formats) {
    byId.get(f.title_id)?.formats.push({
      format: f.format,
      available_from: Number(f.available_from),
      available_until: f.available_until === null ? null : Number(f.available_until),
    });
  }
  return [...byId.values()];
}

/**
 * Gives a subscriber the planned history and lists, once: a subscriber who already has rentals or
 * lists is left alone, and nothing is written while the catalog is empty (load it first). All or nothing (one transaction). Returns whether anything was written.
 * `catalog`: the candidates when the caller has read them already (the demo's queues plan from them too).
 */
export async function seedSubscriberActivity(
  db: Db,
  userId: string,
  now: number,
  catalog?: readonly CandidateTitle[],
): Promise<boolean> {
  const plan = planSubscriberActivity(catalog ?? (await loadCandidates(db)), now);
  // No catalog yet (seeded before it was loaded): write nothing, so a later call can still seed.
  if (plan.rentals.length === 0) return false;
  return db.kysely.transaction().execute(async (tx) => {
    const inTx: Db = { ...db, kysely: tx };
    if ((await hasRentals(inTx, userId)) || (await hasLists(inTx, userId))) return false;
    await insertRentals(inTx, userId, plan.rentals);
    for (const list of plan.lists) await createList(inTx, userId, list.name, list.titleIds, list.created);
    return true;
  });
}
