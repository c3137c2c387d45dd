import { useSyncExternalStore } from 'react';

/** The renderer's own preferences (kept in this window's localStorage): theme and page size. */
export type Theme = 'system' | 'light' | 'dark';
export interface Preferences {
  theme: Theme;
  /** Results per page for search and browse lists. */
  pageSize: number;
}

export const PAGE_SIZES = [24, 48, 96] as const;
const KEY = 'marquee.preferences';
const DEFAULTS: Preferences = { theme: 'system', pageSize: 24 };
const listeners = new Set<() => void>();
let current = read();

function read(): Preferences {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Preferences>;
    return {
      theme: stored.theme === 'light' || stored.theme === 'dark' ? stored.theme : 'system',
      pageSize: PAGE_SIZES.includes(stored.pageSize as (typeof PAGE_SIZES)[number])
        ? stored.pageSize!
        : DEFAULTS.pageSize,
    };
  } catch {
    return DEFAULTS;
  }
}

export function setPreferences(change: Partial<Preferences>): void {
  current = { ...current, ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // storage full or disabled: the choice still holds for this session
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribe, () => current);
}

/** [data-theme] on <html> for a pinned theme; none follows the system. */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
}
