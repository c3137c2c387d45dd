import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import type { PageScroll } from './usePageScroll.ts';

/** The row at the top of the person's view: which title, how far below the view's top, in which list. */
interface Anchor {
  ref: string;
  offset: number;
  items: readonly QueueItem[];
}

/** What the anchor is measured against, as of the last render committed. */
interface Frame {
  items: readonly QueueItem[];
  margin: number;
  rowHeight: number;
}

/**
 * The row under the top edge of the view, or null while the list's first row is on screen: there a
 * person sees what arrives at the top.
 */
function anchorOf(scroller: HTMLElement, { items, margin, rowHeight }: Frame): Anchor | null {
  const index = Math.min(Math.floor((scroller.scrollTop - margin) / rowHeight), items.length - 1);
  if (index < 1) return null;
  return { ref: items[index]!.ref, offset: index * rowHeight + margin - scroller.scrollTop, items };
}

/**
 * Keeps a person's place in the queue when rows change above it (another device moved a title to
 * the top or removed one): the row at the top of the view stays where it is on screen. Our rows
 * are placed by transform, which the browser's own scroll anchoring does not follow (the list opts
 * out of it in queue.css). When that row itself is gone nothing is moved: the rows below slide up.
 * The person's own edits are not anchored (they call the returned `release` first), nor is the
 * list a drag holds (`holding`) or the drop that ends it: there the moved row leads the view.
 */
export function useScrollAnchor(
  items: readonly QueueItem[],
  page: PageScroll,
  rowHeight: number,
  holding: boolean,
): () => void {
  const anchor = useRef<Anchor | null>(null);
  const frame = useRef<Frame>({ items, margin: page.margin, rowHeight });
  const held = useRef(holding);
  const { element, margin } = page;

  useEffect(() => {
    const scroller = element();
    if (!scroller) return;
    const onScroll = () => (anchor.current = anchorOf(scroller, frame.current));
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [element]);

  // Before the new rows are painted: scroll so the anchor's row stands where it stood.
  useLayoutEffect(() => {
    frame.current = { items, margin, rowHeight };
    const scroller = element();
    if (!scroller) return;
    const was = anchor.current;
    if (was && was.items !== items && !holding && !held.current) {
      const index = items.findIndex((item) => item.ref === was.ref);
      if (index >= 0) {
        const target = index * rowHeight + margin - was.offset;
        if (Math.abs(target - scroller.scrollTop) >= 1) scroller.scrollTop = target;
      }
    }
    held.current = holding;
    anchor.current = anchorOf(scroller, frame.current);
  }, [element, items, margin, rowHeight, holding]);

  return useCallback(() => (anchor.current = null), []);
}
