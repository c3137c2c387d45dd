import { createContext, useContext, useState } from 'react';
import type { QueueItem } from '../../../shared/models.ts';
import { useArtTurn } from '../frame/art-pacer.ts';

/** True while the list around is being scrolled (the virtual list provides it). */
export const ListScrolling = createContext(false);

/**
 * A row's box art. Each poster is an SVG the browser lays out and paints on the page's main
 * thread: a row that appears while the list is being flung shows the grey frame and loads its art
 * once the list rests, so scrolling does not wait for posters it only passes by; the rows that
 * then want art take turns, one poster a frame (art-pacer.ts).
 */
export function QueueArt({ item }: { item: QueueItem }) {
  const scrolling = useContext(ListScrolling);
  const [wanted, setWanted] = useState(!scrolling);
  if (!scrolling && !wanted) setWanted(true); // once wanted, kept: a later fling does not take the art away
  const shown = useArtTurn(wanted);
  const src = item.boxArt.small || item.boxArt.medium;
  return shown && src ? (
    <img className="queue-art" src={src} alt="" decoding="async" width={32} height={48} />
  ) : (
    <span className="queue-art" aria-hidden="true" />
  );
}
