import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { quoted } from '../../components/queue/words.ts';

/** A title picked up with the keyboard: where it was and where it would drop (0-based places). */
export interface Lift {
  ref: string;
  from: number;
  to: number;
  /** Dropped: still shown at `to` until the list shows the move. */
  dropped?: boolean;
}

export interface LiftSource {
  /** The titles in their current order (the available part). */
  order: () => readonly string[];
  titleOf: (ref: string) => string;
  /** The drop: the title goes to 1-based `position`. */
  onDrop: (ref: string, position: number) => void;
  /** A title is picked up (true), or dropped or put back (false). */
  onLiftChange?: ((lifting: boolean) => void) | undefined;
}

const STEPS: Record<string, (to: number, last: number) => number> = {
  ArrowUp: (to) => to - 1,
  ArrowDown: (to) => to + 1,
  PageUp: (to) => to - 10,
  PageDown: (to) => to + 10,
  Home: () => 0,
  End: (_to, last) => last,
};

const place = (index: number, total: number) => `position ${index + 1} of ${total}`;

/**
 * Moving a title with the keyboard, on its "Reorder …" handle: Space or Enter picks it up, arrows
 * (Page Up/Down by ten, Home, End) choose its new place, Space or Enter drops it, Escape cancels.
 * The place is an index kept in a ref and changed by each key as it arrives (one listener on the
 * window, in the capture phase), never read back from the page: every key counts at any speed,
 * auto-repeat included, and the place may be far outside the rows the virtual list has rendered.
 * Each step is announced in words, as dnd-kit announces a pointer drag.
 */
export function useKeyboardLift(source: LiftSource, items: unknown): { lifted: Lift | null; announcement: string } {
  const current = useEffectEvent((): LiftSource => source);
  const lift = useRef<Lift | null>(null);
  const [shown, setShown] = useState<Lift | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The list changed: a dropped title is now shown by the list itself (adjusted while rendering).
  const [listShown, setListShown] = useState(items);
  if (items !== listShown) {
    setListShown(items);
    if (shown?.dropped) setShown(null);
  }

  useEffect(() => {
    const update = (next: Lift | null, words: string, show: Lift | null = next) => {
      if ((lift.current === null) !== (next === null)) current().onLiftChange?.(next !== null);
      lift.current = next;
      setShown(show);
      setAnnouncement(words);
    };
    function pickUp(event: KeyboardEvent): void {
      const handle = (event.target as HTMLElement | null)?.closest?.('button.queue-handle');
      const ref = handle?.closest<HTMLElement>('[data-ref]')?.dataset.ref;
      const order = current().order();
      const from = ref ? order.indexOf(ref) : -1;
      if (!ref || from < 0 || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      update({ ref, from, to: from }, `Picked up ${quoted(current().titleOf(ref))}, ${place(from, order.length)}.`);
    }
    function whileLifted(event: KeyboardEvent, now: Lift): void {
      const { order, titleOf, onDrop } = current();
      const total = order().length;
      const name = quoted(titleOf(now.ref));
      const step = STEPS[event.key];
      if (step) {
        const to = Math.max(0, Math.min(total - 1, step(now.to, total - 1)));
        update({ ...now, to }, `${name} is over ${place(to, total)}.`);
      } else if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
        const moved = now.to !== now.from;
        if (moved) onDrop(now.ref, now.to + 1);
        const words = moved
          ? `Moved ${name} to ${place(now.to, total)}.`
          : `Dropped ${name}; it stays at ${place(now.from, total)}.`;
        update(null, words, moved ? { ...now, dropped: true } : null);
      } else if (event.key === 'Escape') {
        update(null, `Cancelled. ${name} stays at ${place(now.from, total)}.`);
      } else if (event.key !== 'Tab' && event.key !== ' ' && event.key !== 'Enter') {
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    function onKeyDown(event: KeyboardEvent): void {
      const now = lift.current;
      if (now) whileLifted(event, now);
      else if (event.key === ' ' || event.key === 'Enter') pickUp(event);
    }
    function onPointerDown(): void {
      const now = lift.current;
      if (!now) return;
      const { order, titleOf } = current();
      update(null, `Cancelled. ${quoted(titleOf(now.ref))} stays at ${place(now.from, order().length)}.`);
    }
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, []);

  return { lifted: shown, announcement };
}
