import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import { landFocus, nearRow } from '../../components/queue/land-focus.ts';

/**
 * When the row holding focus leaves the list without the person's doing (another device removed
 * its title), focus goes to the same control in the row that took its place, as after the
 * person's own Remove, never to the page body. `focused` is the ref of the row with focus and
 * `control` the control in it that had focus (kept, though its row is gone, for its name).
 */
export function useFocusKeptThroughRemoval(
  items: readonly QueueItem[],
  focused: string | null,
  control: RefObject<HTMLElement | null>,
  list: RefObject<HTMLElement | null>,
): void {
  const before = useRef(items);
  useLayoutEffect(() => {
    const was = before.current;
    before.current = items;
    if (!focused || was === items || items.some((item) => item.ref === focused)) return;
    const index = Math.max(
      was.findIndex((item) => item.ref === focused),
      0,
    );
    const rowAt = (i: number) => list.current?.querySelector(`[role="listitem"][aria-posinset="${i + 1}"]`);
    const from = control.current;
    landFocus(from, () => nearRow(rowAt, index, from, () => list.current));
  }, [items, focused, control, list]);
}
