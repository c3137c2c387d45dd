/**
 * The demo subscriber's queues, so a first launch has a queue worth managing: about forty films in
 * the instant queue (a few leaving within weeks, a few more within three months, some saved for
 * later because they arrive soon) and a handful of discs. The catalog's windows are laid out
 * relative to its load time (data/invent/availability.ts), which on a first start is `now`, so
 * the picks below fall where a person would notice them. Deterministic given catalog and `now`.
 */
import type { Db } from '../../store/db.ts';
import { changeQueue } from '../../store/queue/queues.ts';
import type { QueueEntry, QueueKind } from '../../model/queue.ts';
import { hashString, Rng } from '../rng.ts';
import { loadCandidates, type CandidateTitle } from './subscriber.ts';

const SEED = hashString('marquee-demo-queues');
const DAY = 86_400;

/** How many of each kind of pick the instant queue gets (40 in all), and the disc queue's size. */
export const DEMO_QUEUE_SHAPE = { staying: 26, leavingSoon: 5, leavingLater: 3, saved: 6, disc: 5 } as const;

export interface PlannedEntry {
  title_id: number;
  format: string;
  /** Not yet available: the entry goes to the queue's saved part. */
  saved: boolean;
  added: number;
}

export interface PlannedQueues {
  instant: PlannedEntry[];
  disc: PlannedEntry[];
}

type Window = CandidateTitle['formats'][number];

const windowOf = (t: CandidateTitle, format: string): Window | undefined => t.formats.find((f) => f.format === format);
const openAt = (w: Window | undefined, at: number): w is Window =>
  w !== undefined && w.available_from <= at && (w.available_until === null || w.available_until > at);

/** The plan for `now` over `catalog`, leaving out titles in `avoid` (already rented). Pure. */
export function planDemoQueues(
  catalog: readonly CandidateTitle[],
  now: number,
  avoid: ReadonlySet<number>,
): PlannedQueues {
  const rng = new Rng(SEED);
  const movies = catalog.filter((t) => t.type === 'movie' && !avoid.has(t.id)).sort((a, b) => a.id - b.id);
  const taken = new Set<number>();
  const take = (n: number, fits: (t: CandidateTitle) => boolean): CandidateTitle[] => {
    const pool = movies.filter((t) => !taken.has(t.id) && fits(t));
    // Well-rated first: a demo queue of titles somebody chose, not a random draw.
    const liked = rng.shuffle(pool.filter((t) => (t.average_rating ?? 0) >= 3.4));
    const rest = rng.shuffle(pool.filter((t) => (t.average_rating ?? 0) < 3.4));
    const picked = [...liked, ...rest].slice(0, n);
    for (const t of picked) taken.add(t.id);
    return picked;
  };
  const instantUntil = (t: CandidateTitle) => windowOf(t, 'instant')?.available_until ?? null;
  const streaming = (t: CandidateTitle) => openAt(windowOf(t, 'instant'), now);
  const leavingWithin = (from: number, to: number) => (t: CandidateTitle) =>
    streaming(t) && instantUntil(t) !== null && instantUntil(t)! > now + from && instantUntil(t)! <= now + to;

  const shape = DEMO_QUEUE_SHAPE;
  const soon = take(shape.leavingSoon, leavingWithin(DAY, 30 * DAY));
  const later = take(shape.leavingLater, leavingWithin(30 * DAY, 90 * DAY));
  const staying = take(
    shape.staying,
    (t) => streaming(t) && (instantUntil(t) === null || instantUntil(t)! > now + 90 * DAY),
  );
  const saved = take(shape.saved, (t) => {
    const w = windowOf(t, 'instant');
    return w !== undefined && w.available_from > now && w.available_from <= now + 90 * DAY;
  });
  const discFormat = (t: CandidateTitle) =>
    ['DVD', 'Blu-ray'].find((f) => openAt(windowOf(t, f), now) && openAt(windowOf(t, f), now + 30 * DAY));
  const discs = take(shape.disc, (t) => discFormat(t) !== undefined);

  const addedRng = rng.fork('added');
  const addedWithin = (days: number) => now - addedRng.int(1, days) * DAY - addedRng.int(0, DAY - 1);
  const available = rng
    .shuffle([...staying, ...soon, ...later])
    .map((t) => ({ title_id: t.id, format: 'instant', saved: false, added: addedWithin(400) }));
  const savedEntries = saved
    .map((t) => ({ title_id: t.id, format: 'instant', saved: true, added: addedWithin(60) }))
    .sort((a, b) => a.added - b.added);
  return {
    instant: [...available, ...savedEntries],
    disc: discs.map((t) => ({ title_id: t.id, format: discFormat(t)!, saved: false, added: addedWithin(200) })),
  };
}

/** Writes a planned queue unless the queue already holds something (a person's own edits win). */
export async function seedQueue(
  db: Db,
  userId: string,
  kind: QueueKind,
  planned: readonly PlannedEntry[],
): Promise<boolean> {
  if (planned.length === 0) return false;
  const entries: QueueEntry[] = planned.map((p, i) => ({
    title_id: p.title_id,
    position: p.saved ? null : i + 1,
    format: p.format,
    added: p.added,
    updated: p.added,
  }));
  const done = await changeQueue(db, userId, kind, undefined, (current) =>
    current.length > 0 ? { entries: current, result: null, changed: false } : { entries, result: null },
  );
  return done.changed;
}

/**
 * Gives a subscriber the planned queues, leaving out what they have rented (seed the activity
 * first). Nothing is written over an empty catalog or into a queue that holds anything.
 * `catalog`: the candidates when the caller has read them already.
 */
export async function seedDemoQueues(
  db: Db,
  userId: string,
  now: number,
  catalog?: readonly CandidateTitle[],
): Promise<boolean> {
  const rented = await db.kysely.selectFrom('rentals').select('title_id').where('user_id', '=', userId).execute();
  const candidates = catalog ?? (await loadCandidates(db));
  const plan = planDemoQueues(candidates, now, new Set(rented.map((r) => Number(r.title_id))));
  const [instant, disc] = [
    await seedQueue(db, userId, 'instant', plan.instant),
    await seedQueue(db, userId, 'disc', plan.disc),
  ];
  return instant || disc;
}
