/**
 * The app's words for counts, dates and names, each written once: every screen says "1 title",
 * shows a date in the person's own locale, and sorts names the way a shelf does ("The Matrix"
 * under M). Plain functions: the queries, components and screens all use them.
 */

/** "1 title", "41 titles", "1 person", "3 people". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** One formatter per shape and zone (building one per row costs a frame in a 500-row list). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(withYear: boolean, zone: 'UTC' | undefined): Intl.DateTimeFormat {
  const key = `${withYear} ${zone}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(undefined, {
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
      ...(zone ? { timeZone: zone } : {}),
    });
    formatters.set(key, made);
  }
  return made;
}

/** A date as the service gives it: unix seconds, an ISO day ("2027-03-12") or a Date. */
export type DateLike = number | string | Date;

function dateOf(when: DateLike): Date {
  if (when instanceof Date) return when;
  if (typeof when === 'number') return new Date(when * 1000);
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(when) ? `${when}T00:00:00Z` : when);
}

/**
 * A day in the person's locale ("12 Mar 2027", "Mar 12, 2027"); `year: 'other'` leaves out the
 * year when it is this one ("12 Mar"). Availability days are the service's calendar days, read in
 * UTC; a moment (a rental, an alert) is read in the person's own time zone (`moment: true`).
 */
export function formatDate(
  when: DateLike,
  { year = 'always', now = new Date(), moment = false }: DateOptions = {},
): string {
  const date = dateOf(when);
  const yearOf = (d: Date) => (moment ? d.getFullYear() : d.getUTCFullYear());
  const withYear = year === 'always' || yearOf(date) !== yearOf(now);
  return formatter(withYear, moment ? undefined : 'UTC').format(date);
}

export interface DateOptions {
  /** 'always' (the default) or only when the date is in another year than `now`'s. */
  year?: 'always' | 'other';
  now?: Date;
  /** A moment in time rather than a calendar day: shown in the person's time zone. */
  moment?: boolean;
}

/** A leading English article a shelf passes over: "The Matrix", "A Few Good Men", "An Education". */
const LEADING_ARTICLE = /^(the|a|an)\s+(?=\S)/i;

/** The name as a shelf files it: "The Matrix" → "Matrix"; "A" alone, or "The The", keeps a word. */
export function sortingName(name: string): string {
  const trimmed = name.trim();
  return trimmed.replace(LEADING_ARTICLE, '') || trimmed;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Orders two names A–Z the way a shelf does: past a leading article, case and accents aside, 2 before 10. */
export function compareTitles(a: string, b: string): number {
  return collator.compare(sortingName(a), sortingName(b)) || collator.compare(a, b);
}
