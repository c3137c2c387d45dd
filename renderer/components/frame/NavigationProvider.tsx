import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { NavigationContext, withLastSearch, type Location, type Navigation, type Screen } from '../../router.ts';

interface History {
  entries: Location[];
  index: number;
}

const START: Location = { screen: { name: 'browse' }, panel: null };

/** Appends a location after the current one (dropping any forward entries), like a browser. */
function push(history: History, next: Location): History {
  const entries = [...history.entries.slice(0, history.index + 1), next];
  return { entries, index: entries.length - 1 };
}

/**
 * The router of router.ts: an in-memory back/forward history of locations. Alt+←/→ and the mouse's
 * back/forward buttons move through it; Escape (handled by the frame) closes the panel.
 */
export function NavigationProvider({ children, initial = START }: { children: ReactNode; initial?: Location }) {
  const [history, setHistory] = useState<History>({ entries: [initial], index: 0 });
  const location = history.entries[history.index]!;

  const go = useCallback(
    (screen: Screen) => setHistory((h) => push(h, { screen: withLastSearch(screen, h.entries, h.index), panel: null })),
    [],
  );
  const replace = useCallback(
    (screen: Screen) =>
      setHistory((h) => ({
        ...h,
        entries: h.entries.map((entry, i) => (i === h.index ? { ...entry, screen } : entry)),
      })),
    [],
  );
  const openTitle = useCallback(
    (ref: string) => setHistory((h) => push(h, { screen: h.entries[h.index]!.screen, panel: { type: 'title', ref } })),
    [],
  );
  const openPerson = useCallback(
    (ref: string) => setHistory((h) => push(h, { screen: h.entries[h.index]!.screen, panel: { type: 'person', ref } })),
    [],
  );
  const closePanel = useCallback(
    () =>
      setHistory((h) => (h.entries[h.index]!.panel ? push(h, { screen: h.entries[h.index]!.screen, panel: null }) : h)),
    [],
  );
  const back = useCallback(() => setHistory((h) => (h.index > 0 ? { ...h, index: h.index - 1 } : h)), []);
  const forward = useCallback(
    () => setHistory((h) => (h.index < h.entries.length - 1 ? { ...h, index: h.index + 1 } : h)),
    [],
  );

  useHistoryKeys(back, forward);

  const navigation = useMemo<Navigation>(
    () => ({
      location,
      go,
      replace,
      openTitle,
      openPerson,
      closePanel,
      back,
      forward,
      canGoBack: history.index > 0,
      canGoForward: history.index < history.entries.length - 1,
    }),
    [location, go, replace, openTitle, openPerson, closePanel, back, forward, history.index, history.entries.length],
  );
  return <NavigationContext.Provider value={navigation}>{children}</NavigationContext.Provider>;
}

/** Alt+← / Alt+→ and the mouse's back (button 3) and forward (button 4) buttons. */
function useHistoryKeys(back: () => void, forward: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      if (e.key === 'ArrowLeft') back();
      else forward();
    };
    const onMouse = (e: MouseEvent) => {
      if (e.button !== 3 && e.button !== 4) return;
      e.preventDefault();
      if (e.button === 3) back();
      else forward();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mouseup', onMouse);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mouseup', onMouse);
    };
  }, [back, forward]);
}
