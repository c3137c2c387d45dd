/** Small words and numbers of the queue screen. */

/** "1 h 52 min", "48 min", or "" when unknown. */
export function formatRuntime(seconds: number | null): string {
  if (!seconds) return '';
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "12 Mar 2027" from an ISO date or unix seconds (one formatter: building one per row costs a frame). */
export function formatDate(when: string | number): string {
  return dateFormat.format(typeof when === 'number' ? new Date(when * 1000) : new Date(`${when}T00:00:00Z`));
}

/** “Alien”, with the typographic quotes the announcements use. */
export function quoted(title: string): string {
  return `“${title}”`;
}

export function titlesCount(n: number): string {
  return `${n.toLocaleString()} ${n === 1 ? 'title' : 'titles'}`;
}
