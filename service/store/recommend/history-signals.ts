import type { Db } from '../db.ts';
import type { SignalSource, TasteSignal } from './taste.ts';

/** The most recent rentals the model learns from. */
const MAX_RENTALS = 500;

/**
 * Watched and rented titles as implicit, weaker evidence than a rating: an instant watch scores by
 * how much of the title was watched (abandoned early: 2, half: 3, to the end: 4), a disc rental a
 * mild 3.5. An episode or disc counts for its series or movie, which is what gets recommended.
 */
export const historySignals: SignalSource = async (db: Db, userId: string) => {
  const rows = await db.kysely
    .selectFrom('rentals')
    .innerJoin('titles', 'titles.id', 'rentals.title_id')
    .select([
      'rentals.title_id',
      'rentals.viewed_time',
      'rentals.watched_date',
      'titles.runtime',
      'titles.type',
      'titles.series_id',
      'titles.parent_id',
    ])
    .where('rentals.user_id', '=', userId)
    .orderBy('rentals.updated', 'desc')
    .limit(MAX_RENTALS)
    .execute();
  const signals = new Map<number, TasteSignal>();
  for (const r of rows) {
    const titleId =
      r.type === 'program' || r.type === 'season'
        ? r.series_id
        : r.type === 'disc'
          ? (r.series_id ?? r.parent_id)
          : r.title_id;
    if (titleId === null || signals.has(titleId)) continue; // the most recent rental of a title speaks for it
    if (r.watched_date !== null) {
      const watched = r.runtime ? Math.min(1, (r.viewed_time ?? 0) / r.runtime) : 1;
      signals.set(titleId, { titleId, score: watched < 0.25 ? 2 : watched < 0.75 ? 3 : 4, weight: 0.5 });
    } else {
      signals.set(titleId, { titleId, score: 3.5, weight: 0.3 });
    }
  }
  return [...signals.values()];
};
