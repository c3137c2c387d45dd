import { useState } from 'react';

/**
 * The list as it was when a drag began, for as long as the drag lasts: another device's change
 * (the core's change stream) must not move rows under the person's hand. Let go, the list shows
 * the latest queue at once; the drop is an intent ("move X to place N") that the core rebases.
 */
export function useHeldWhileDragging<T>(latest: T, dragging: boolean): T {
  const [held, setHeld] = useState(latest);
  // Adjusted while rendering (React's "storing information from previous renders"): no extra frame.
  if (!dragging && held !== latest) setHeld(latest);
  return dragging ? held : latest;
}
