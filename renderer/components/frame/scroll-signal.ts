import { createContext } from 'react';

/**
 * Whether the content column is being scrolled: box art that appears during a fling can wait
 * until the content rests (each poster is an SVG the main thread lays out and paints, and a
 * fling passes dozens it never stops at). One per frame, handed down by context.
 */
export interface ScrollSignal {
  scrolling(): boolean;
  /** Calls `then` once the content rests (at once when it does); returns a cancel. */
  whenResting(then: () => void): () => void;
  /** The content column's scroll handler. */
  onScroll: () => void;
}

/** Scrolling stops counting this long after the last scroll event. */
const REST_MS = 150;

export function createScrollSignal(restMs = REST_MS): ScrollSignal {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const waiting = new Set<() => void>();
  const rest = () => {
    timer = null;
    const due = [...waiting];
    waiting.clear();
    for (const then of due) then();
  };
  return {
    scrolling: () => timer !== null,
    whenResting(then) {
      if (timer === null) {
        then();
        return () => {};
      }
      waiting.add(then);
      return () => waiting.delete(then);
    },
    onScroll() {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(rest, restMs);
    },
  };
}

export const ScrollSignalContext = createContext<ScrollSignal | null>(null);
