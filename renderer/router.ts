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
  /** Shows a screen (and closes the panel). */
  go(screen: Screen): void;
  openTitle(ref: string): void;
  openPerson(ref: string): void;
  closePanel(): void;
  back(): void;
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
