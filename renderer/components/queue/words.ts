import { countOf } from '../../words.ts';

/** Small words and numbers of the queue screen. */

/** "1 h 52 min", "48 min", or "" when unknown. */
export function formatRuntime(seconds: number | null): string {
  if (!seconds) return '';
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

// The app's one date helper, re-exported for SavedTitles.tsx until it imports renderer/words.ts itself.
export { formatDate } from '../../words.ts';

/** “Alien”, with the typographic quotes the announcements use. */
export function quoted(title: string): string {
  return `“${title}”`;
}

/** "1 title", "12 titles" (the app's one plural helper). */
export function titlesCount(n: number): string {
  return countOf(n, 'title');
}
