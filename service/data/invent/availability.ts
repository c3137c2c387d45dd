/** Availability windows relative to `now`: most titles available, a few awaiting release or expiring. */
import type { TitleFormat } from '../../../shared/protocol/index.ts';
import type { AvailabilityTable } from '../../store/schema.ts';
import type { Rng } from '../rng.ts';

const DAY = 86_400;

/** now: available; future: every format starts later ("awaiting release"); expiring: ends within 14 days. */
export type AvailabilityState = 'now' | 'future' | 'expiring';

export interface Window {
  from: number;
  until: number | null;
}

export function pickState(rng: Rng): AvailabilityState {
  const r = rng.next();
  return r < 0.05 ? 'future' : r < 0.1 ? 'expiring' : 'now';
}

/** One window in the given state; all windows of a title share its state. */
export function pickWindow(rng: Rng, now: number, state: AvailabilityState): Window {
  switch (state) {
    case 'future': {
      const from = now + rng.int(2 * DAY, 90 * DAY);
      return { from, until: rng.chance(0.7) ? null : from + rng.int(365, 1500) * DAY };
    }
    case 'expiring':
      return { from: now - rng.int(30, 2000) * DAY, until: now + rng.int(DAY / 2, 14 * DAY - 3600) };
    case 'now':
      return {
        from: now - rng.int(1, 3650) * DAY - rng.int(0, DAY - 1),
        until: rng.chance(0.75) ? null : now + rng.int(60, 1200) * DAY,
      };
  }
}

/**
 * Formats a film is offered in: mostly instant plus disc, some instant-only, some disc-only;
 * Blu-ray more likely for newer films.
 */
export function filmFormats(rng: Rng, year: number | null): TitleFormat[] {
  const bluRay = rng.chance((year ?? 2000) >= 1990 ? 0.6 : 0.3);
  const r = rng.next();
  if (r < 0.15) return ['instant'];
  if (r < 0.3) return bluRay ? ['DVD', 'Blu-ray'] : ['DVD'];
  return bluRay ? ['instant', 'DVD', 'Blu-ray'] : ['instant', 'DVD'];
}

/** A season streams and ships on DVD; some also on Blu-ray (so its episodes and discs always have a format). */
export function seasonFormats(rng: Rng): TitleFormat[] {
  return rng.chance(0.4) ? ['instant', 'DVD', 'Blu-ray'] : ['instant', 'DVD'];
}

/** Rows for one title: a window per format, all in the same state. */
export function availabilityRows(
  titleId: number,
  formats: readonly TitleFormat[],
  rng: Rng,
  now: number,
  state: AvailabilityState,
): AvailabilityTable[] {
  return formats.map((format) => {
    const w = pickWindow(rng, now, state);
    return { title_id: titleId, format, available_from: w.from, available_until: w.until };
  });
}

/** Another title's rows for a subset of formats (episodes and discs follow their season or film). */
export function inheritRows(
  titleId: number,
  parentRows: readonly AvailabilityTable[],
  formats: readonly TitleFormat[],
): AvailabilityTable[] {
  return parentRows
    .filter((r) => (formats as readonly string[]).includes(r.format))
    .map((r) => ({ ...r, title_id: titleId }));
}

/** A series is available in a format from its earliest season to its last (open-ended if any is). */
export function unionRows(titleId: number, memberRows: readonly AvailabilityTable[]): AvailabilityTable[] {
  const byFormat = new Map<string, AvailabilityTable>();
  for (const r of memberRows) {
    const cur = byFormat.get(r.format);
    if (!cur) {
      byFormat.set(r.format, { ...r, title_id: titleId });
      continue;
    }
    cur.available_from = Math.min(cur.available_from, r.available_from);
    cur.available_until =
      cur.available_until === null || r.available_until === null
        ? null
        : Math.max(cur.available_until, r.available_until);
  }
  return [...byFormat.values()];
}

/** Disc formats only: a disc set ships, it never streams. */
export const DISC_FORMATS: readonly TitleFormat[] = ['DVD', 'Blu-ray'];
