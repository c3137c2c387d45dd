import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** The nearest ancestor of `el` that scrolls (the content column), else the document's own scroll. */
function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let up = el.parentElement; up; up = up.parentElement) {
    const { overflowY } = getComputedStyle(up);
    if (overflowY === 'auto' || overflowY === 'scroll') return up;
  }
  return document.scrollingElement as HTMLElement | null;
}

/** Where `el` starts in `parent`'s scrolled content, in pixels. */
function offsetIn(el: HTMLElement, parent: HTMLElement): number {
  return Math.round(el.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop);
}

export interface PageScroll {
  /** The element that scrolls the list (the virtualiser's getScrollElement). */
  element: () => HTMLElement | null;
  /** How far down that element's content the list starts (the virtualiser's scrollMargin). */
  margin: number;
}

/**
 * A list virtualised in the page's scroll rather than a box of its own: the scrolling ancestor, and
 * the list's offset in it, measured again whenever the screen around it changes size (a timeline
 * collapsed, a toolbar shown, the window resized).
 */
export function usePageScroll(ref: RefObject<HTMLElement | null>): PageScroll {
  const [margin, setMargin] = useState(0);
  const parent = useRef<HTMLElement | null>(null);
  const element = useCallback(() => {
    if (!parent.current && ref.current) parent.current = scrollParent(ref.current);
    return parent.current;
  }, [ref]);

  useLayoutEffect(() => {
    const el = ref.current;
    const scroller = element();
    if (!el || !scroller) return;
    const measure = () => setMargin(offsetIn(el, scroller));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el.closest('section') ?? scroller);
    return () => observer.disconnect();
  }, [ref, element]);

  return { element, margin };
}
