import { useEffect, useState } from 'react';

/**
 * Box art's turns, one poster per animation frame. Each poster is an SVG the browser loads as a
 * document of its own and lays out (its text) when it arrives and again when it paints, on the
 * page's main thread: 20–100 ms a poster on this machine (bench C5's Chromium trace:
 * SVGImage::DataChanged and PaintImage, both in InlineNode::FindSvgTextChunks). When a list came
 * to rest and a screenful of rows asked for its art at once, that frame took 260–370 ms. The
 * latest to ask goes first: after a scroll, those are the rows in view. No turns while anything
 * on the page scrolls (a scroll event in the last REST_MS), so posters that asked before a scroll
 * began wait for it to rest too.
 */
const REST_MS = 150;
const waiting: Array<() => void> = [];
let scheduled = false;
let lastScroll = -Infinity;

if (typeof document !== 'undefined') {
  document.addEventListener('scroll', () => (lastScroll = performance.now()), { capture: true, passive: true });
}

function grantOne(): void {
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
}

function schedule(): void {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  requestAnimationFrame(grantOne);
}

/** Calls `go` on a later animation frame when its turn comes; returns a cancel. */
export function awaitArtTurn(go: () => void): () => void {
  waiting.push(go);
  schedule();
  return () => {
    const i = waiting.indexOf(go);
    if (i >= 0) waiting.splice(i, 1);
  };
}

/** Whether a poster may show: false until `wanted` and its turn has come, then true for good. */
export function useArtTurn(wanted: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => (wanted && !shown ? awaitArtTurn(() => setShown(true)) : undefined), [wanted, shown]);
  return shown;
}
