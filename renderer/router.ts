import { createContext, useContext } from 'react';
import type { ExportWhat } from '../shared/import-export.ts';

/**
 * Where the app is: one screen in the content area, and optionally a title or person open in the
 * detail panel beside it. Navigation keeps a back/forward history like a browser's.
 */
export type Screen =
  | { name: 'browse'; genre?: string }
  | { name: 'search'; term?: string }
  | { name: 'queue'; kind: 'instant' | 'disc' }
  | { name: 'ratings' }
  | { name: 'recommendations' }
  | { name: 'history' }
  | { name: 'alerts' }
  | { name: 'settings' }
  | { name: 'import'; kind?: 'instant' | 'disc' }
  | { name: 'export'; what?: ExportWhat };

export type Panel = { type: 'title'; ref: string } | { type: 'person'; ref: string } | null;

export interface Location {
  screen: Screen;
  panel: Panel;
}

export interface Navigation {
  location: Location;
  /** Shows a screen (and closes the panel); Search without a term shows the last search (see withLastSearch). */
  go(screen: Screen): void;
  /** Changes the current screen in place, with no new history entry (the term being typed in Search). */
  replace: (screen: Screen) => void;
  openTitle(ref: string): void;
  openPerson(ref: string): void;
  closePanel: () => void;
  back: () => void;
  forward(): void;
  canGoBack: boolean;
  canGoForward: boolean;
}

export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const nav = useContext(NavigationContext);
  if (!nav) throw new Error('useNavigation outside the app frame');
  return nav;
}

/** The term of the latest search in `entries` up to `index` (the location is where the last search lives), or undefined. */
export function lastSearchTerm(entries: readonly Location[], index: number): string | undefined {
  for (let i = Math.min(index, entries.length - 1); i >= 0; i--) {
    const screen = entries[i]!.screen;
    if (screen.name === 'search' && screen.term !== undefined) return screen.term;
  }
  return undefined;
}

/** Search asked for without a term comes back to the last search: `screen` with that term. */
export function withLastSearch(screen: Screen, entries: readonly Location[], index: number): Screen {
  if (screen.name !== 'search' || screen.term !== undefined) return screen;
  const term = lastSearchTerm(entries, index);
  return term === undefined ? screen : { name: 'search', term };
}
