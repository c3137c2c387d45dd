import { useEffect } from 'react';
import { useNavigation } from '../../router.ts';

/** The search box every screen's `/` focuses (H7's SearchBox carries this id). */
export const SEARCH_INPUT_ID = 'search-input';
const CHORD_MS = 1200;

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** Focuses the search box once the search screen has rendered it. */
function focusSearch(tries = 20): void {
  const input =
    document.getElementById(SEARCH_INPUT_ID) ??
    document.querySelector<HTMLElement>('main [role="searchbox"], main [role="combobox"], main input[type="search"]');
  if (input) input.focus();
  else if (tries > 0) requestAnimationFrame(() => focusSearch(tries - 1));
}

/**
 * App-wide keys: `/` focuses search, `g` then `q` opens the instant queue, Escape closes the
 * detail panel. Ignored while typing in a field (Escape aside) or when a widget handled the key.
 */
export function useShortcuts(): void {
  const nav = useNavigation();
  useEffect(() => {
    let chordAt = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape') {
        if (nav.location.panel && !document.querySelector('[role="dialog"][aria-modal="true"]')) {
          e.preventDefault();
          nav.closePanel();
        }
        return;
      }
      if (typingIn(e.target)) return;
      if (e.key === '/') {
        e.preventDefault();
        if (nav.location.screen.name !== 'search') nav.go({ name: 'search' });
        focusSearch();
      } else if (e.key === 'g') {
        chordAt = Date.now();
      } else if (e.key === 'q' && Date.now() - chordAt < CHORD_MS) {
        chordAt = 0;
        nav.go({ name: 'queue', kind: 'instant' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [nav]);
}
