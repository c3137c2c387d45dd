import type { QueueItem } from '../../shared/models.ts';
import { compareTitles } from '../words.ts';

/** The orders a queue (or a selection of it) can be sorted by. */
export type SortKey = 'title' | 'year' | 'runtime' | 'average' | 'predicted' | 'ending' | 'added' | 'shuffle';

export const SORT_LABELS: Record<SortKey, string> = {
  title: 'Title (A–Z)',
  year: 'Year (newest first)',
  runtime: 'Runtime (shortest first)',
  average: 'Average rating (highest first)',
  predicted: 'Predicted rating (highest first)',
  ending: 'Availability ending soonest',
  added: 'Date added (newest first)',
  shuffle: 'Shuffle',
};

/** Predicted ratings by title ref (from ratings.get). */
export type Predictions = ReadonlyMap<string, number | null>;

/** Unix seconds from "available until 2027-03-01"; titles without an end sort last. */
export function availableUntil(item: Pick<QueueItem, 'availability'>): number | null {
  const date = /until (\d{4}-\d{2}-\d{2})/.exec(item.availability)?.[1];
  return date ? Date.parse(`${date}T00:00:00Z`) / 1000 : null;
}

/** Sorts descending with blanks last, ascending with blanks last. */
function byNumber(value: (item: QueueItem) => number | null, descending: boolean) {
  return (a: QueueItem, b: QueueItem): number => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return descending ? y - x : x - y;
  };
}

function comparator(
  key: Exclude<SortKey, 'shuffle'>,
  predictions: Predictions,
): (a: QueueItem, b: QueueItem) => number {
  switch (key) {
    case 'title':
      return (a, b) => compareTitles(a.title, b.title);
    case 'year':
      return byNumber((i) => i.year, true);
    case 'runtime':
      return byNumber((i) => i.runtimeSeconds, false);
    case 'average':
      return byNumber((i) => i.averageRating, true);
    case 'predicted':
      return byNumber((i) => predictions.get(i.ref) ?? null, true);
    case 'ending':
      return byNumber(availableUntil, false);
    case 'added':
      return byNumber((i) => i.updated, true);
  }
}

/** Fisher–Yates with an injectable random source (tests and benchmarks pass a seeded one). */
export function shuffled<T>(list: readonly T[], random: () => number = Math.random): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `items` sorted by `key` (stable: ties keep their queue order). */
export function sortItems(
  items: readonly QueueItem[],
  key: SortKey,
  predictions: Predictions,
  random?: () => number,
): QueueItem[] {
  if (key === 'shuffle') return shuffled(items, random);
  return [...items].sort(comparator(key, predictions));
}

/**
 * The whole available order with only the chosen titles sorted among the places they hold
 * (a selection sorted in place); with no selection, the whole queue sorted.
 */
export function sortOrder(
  available: readonly QueueItem[],
  key: SortKey,
  predictions: Predictions,
  chosen?: ReadonlySet<string>,
  random?: () => number,
): string[] {
  if (!chosen || chosen.size === 0) return sortItems(available, key, predictions, random).map((i) => i.ref);
  const sorted = sortItems(
    available.filter((i) => chosen.has(i.ref)),
    key,
    predictions,
    random,
  );
  let next = 0;
  return available.map((i) => (chosen.has(i.ref) ? sorted[next++]!.ref : i.ref));
}
