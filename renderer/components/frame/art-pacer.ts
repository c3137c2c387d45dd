import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * Box art's turns, one poster per animation frame. Each poster is an SVG the browser loads as a
 * document of its own and lays out (its text) when it arrives and again when it paints, on the
 * page's main thread: 20–100 ms a poster on this machine (bench C5's Chromium trace:
 * SVGImage::DataChanged and PaintImage, both in InlineNode::FindSvgTextChunks). When a list came
 * to rest and a screenful of rows asked for its art at once, that frame took 260–370 ms. The
 * latest to ask goes first: after a scroll, those are the rows in view. No turns while anything
 * on the page scrolls (a scroll event in the last REST_MS), so posters that asked before a scroll
 * began wait for it to rest too. One pacer per window, handed down by context (ArtPacerProvider).
 */
const REST_MS = 150;

export interface ArtPacer {
  /** Calls `go` on a later animation frame when its turn comes; returns a cancel. */
  awaitTurn(go: () => void): () => void;
  /** Listens to the document's scrolling; returns the stop. */
  watchScrolling(doc: Document): () => void;
}

export function createArtPacer(): ArtPacer {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  let lastScroll = -Infinity;

  const grantOne = () => {
    scheduled = false;
    const sinceScroll = performance.now() - lastScroll;
    if (sinceScroll < REST_MS) {
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        schedule();
      }, REST_MS - sinceScroll);
      return;
    }
    waiting.pop()?.();
    schedule();
  };
  const schedule = () => {
    if (scheduled || waiting.length === 0) return;
    scheduled = true;
    requestAnimationFrame(grantOne);
  };
  return {
    awaitTurn(go) {
      waiting.push(go);
      schedule();
      return () => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
      };
    },
    watchScrolling(doc) {
      const onScroll = () => (lastScroll = performance.now());
      doc.addEventListener('scroll', onScroll, { capture: true, passive: true });
      return () => doc.removeEventListener('scroll', onScroll, { capture: true });
    },
  };
}

const ArtPacerContext = createContext<ArtPacer | null>(null);

/** The window's one pacer (App gives it), listening to the page's scrolling while mounted. */
export function ArtPacerProvider({ children }: { children: ReactNode }) {
  const [pacer] = useState(createArtPacer);
  useEffect(() => pacer.watchScrolling(document), [pacer]);
  return createElement(ArtPacerContext.Provider, { value: pacer }, children);
}

/** Whether a poster may show: false until `wanted` and its turn has come, then true for good (at once without a pacer). */
export function useArtTurn(wanted: boolean): boolean {
  const pacer = useContext(ArtPacerContext);
  const [shown, setShown] = useState(false);
  useEffect(
    () => (wanted && !shown && pacer ? pacer.awaitTurn(() => setShown(true)) : undefined),
    [wanted, shown, pacer],
  );
  return shown || (wanted && !pacer);
}
