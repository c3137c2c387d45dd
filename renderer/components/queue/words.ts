/** Small words and numbers of the queue screen. */

/** "1 h 52 min", "48 min", or "" when unknown. */
export function formatRuntime(seconds: number | null): string {
  if (!seconds) return '';
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

/** “Alien”, with the typographic quotes the announcements use. */
export function quoted(title: string): string {
  return `“${title}”`;
}
