import type { ImportEntry } from '../../../shared/import-export.ts';
import type { UserRating } from '../../../shared/models.ts';
import { titleKey } from '../../../shared/protocol/title-key.ts';

/** Small readers the file formats share: years, ratings on other scales, repeated entries. */

const FIRST_FILM_YEAR = 1870;
const LAST_YEAR = 2100;

/** The first four-digit year in a field ("1999", "1999–2003", "1999-05-01"), or null. */
export function yearIn(field: string | undefined): number | null {
  const m = /(?<!\d)(\d{4})(?!\d)/.exec(field ?? '');
  if (!m) return null;
  const year = Number(m[1]);
  return year >= FIRST_FILM_YEAR && year <= LAST_YEAR ? year : null;
}

/** A rating out of 5 that may have halves (Letterboxd's 0.5–5) → the service's 1–5; null when none. */
export function ratingOutOf5(field: string | undefined): UserRating | null {
  const value = Number((field ?? '').trim().replace(',', '.'));
  if (!(field ?? '').trim() || !Number.isFinite(value) || value <= 0 || value > 5) return null;
  return Math.min(5, Math.max(1, Math.round(value))) as UserRating;
}

/** A rating out of 10 (IMDb, Letterboxd's Rating10) → 1–5: 9 or 10 is 5, 1 or 2 is 1. */
export function ratingOutOf10(field: string | undefined): UserRating | null {
  const value = Number((field ?? '').trim());
  if (!(field ?? '').trim() || !Number.isFinite(value) || value <= 0 || value > 10) return null;
  return Math.min(5, Math.max(1, Math.ceil(value / 2))) as UserRating;
}

/** A service's own rating value: 1–5 or `not_interested`. */
export function serviceRating(value: unknown): UserRating | null {
  if (value === 'not_interested') return 'not_interested';
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5
    ? (value as UserRating)
    : null;
}

export function entry(fields: Partial<ImportEntry> & Pick<ImportEntry, 'line' | 'title'>): ImportEntry {
  return { year: null, type: null, ref: null, rating: null, listed: true, ...fields, title: fields.title.trim() };
}

/**
 * One entry per film: a diary logs a film once per viewing, so later lines of the same name and
 * year give their rating to the first (the last rating given wins) and are dropped.
 */
export function mergeRepeats(entries: ImportEntry[]): ImportEntry[] {
  const first = new Map<string, ImportEntry>();
  const out: ImportEntry[] = [];
  for (const e of entries) {
    const key = e.ref ?? `${titleKey(e.title)}\u0000${e.year ?? ''}`;
    const seen = first.get(key);
    if (!seen) {
      const kept = { ...e };
      first.set(key, kept);
      out.push(kept);
    } else if (e.rating !== null) {
      seen.rating = e.rating;
    }
  }
  return out;
}
