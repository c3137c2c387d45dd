import type { TitleSummary, TitleType } from '../../../shared/models.ts';

/** Small words and numbers the catalog screens show. */

const TYPE_WORDS: Record<TitleType, string> = {
  movie: 'Movie',
  series: 'Series',
  season: 'Season',
  program: 'Episode',
  disc: 'Disc',
};

export function typeWord(type: TitleType): string {
  return TYPE_WORDS[type];
}

/** 8160 → "2h 16m"; 1500 → "25m". */
export function runtimeWords(seconds: number | null): string | null {
  if (!seconds || seconds <= 0) return null;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m`;
}

/** "1999 · Movie" under a card. */
export function cardMeta(title: Pick<TitleSummary, 'year' | 'type'>): string {
  return [title.year, typeWord(title.type)].filter((x) => x !== null).join(' · ');
}

/** 4.4 → "4.4"; 4 → "4.0". */
export function ratingNumber(value: number): string {
  return value.toFixed(1);
}
