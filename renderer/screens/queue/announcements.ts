import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';

/**
 * What a screen reader hears while a title is dragged, in words and positions rather than ids:
 * "Picked up “Alien”, position 8 of 212." … "Moved “Alien” to position 3 of 212."
 */
export interface OrderReader {
  /** Titles in their current order (the available part). */
  order(): readonly string[];
  titleOf(ref: string): string;
}

export const instructions: ScreenReaderInstructions = {
  draggable:
    'To move a title, press Space to pick it up. Use the up and down arrow keys (Page Up and Page Down by ten, Home and End to either end) to choose its new place, then press Space to drop it there, or Escape to cancel. Alt with the up or down arrow moves it one place at once.',
};

export function queueAnnouncements(reader: OrderReader): Announcements {
  const name = (id: UniqueIdentifier) => `“${reader.titleOf(String(id))}”`;
  const place = (id: UniqueIdentifier) =>
    `position ${reader.order().indexOf(String(id)) + 1} of ${reader.order().length}`;
  return {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, ${place(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${name(active.id)} is over ${place(over.id)}.`
        : `${name(active.id)} is no longer over a place in the queue.`,
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id
        ? `Moved ${name(active.id)} to ${place(over.id)}.`
        : `Dropped ${name(active.id)}; it stays at ${place(active.id)}.`,
    onDragCancel: ({ active }) => `Cancelled. ${name(active.id)} stays at ${place(active.id)}.`,
  };
}
