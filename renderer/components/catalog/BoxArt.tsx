import { useCallback, useContext, useEffect, useState } from 'react';
import type { BoxArt as BoxArtUrls } from '../../../shared/models.ts';
import { useArtTurn } from '../frame/art-pacer.ts';
import { ScrollSignalContext } from '../frame/scroll-signal.ts';

/**
 * A 2:3 poster that fades in once decoded; a grey frame (the same shape) until then, and when the
 * title has no art. Decorative by default: the card or heading beside it names the title. A poster
 * that appears while the content is being scrolled loads once it rests (see scroll-signal.ts), and
 * posters take turns, one poster a frame (art-pacer.ts).
 */
export function BoxArt({
  art,
  size = 'medium',
  alt = '',
  className = '',
}: {
  art: BoxArtUrls | undefined;
  size?: keyof BoxArtUrls;
  alt?: string;
  className?: string;
}) {
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const scroll = useContext(ScrollSignalContext);
  const [wanted, setWanted] = useState(() => !scroll?.scrolling());
  useEffect(() => (wanted || !scroll ? undefined : scroll.whenResting(() => setWanted(true))), [wanted, scroll]);
  const shown = useArtTurn(wanted);
  // An image already in the browser's cache may be complete before React attaches onLoad.
  const seeComplete = useCallback((img: HTMLImageElement | null) => {
    if (img?.complete && img.naturalWidth > 0) setLoaded(true);
  }, []);
  const src = art?.[size] || art?.medium || '';
  return (
    <span className={`box-art ${className}`.trim()}>
      {src && !failed && shown && (
        <img
          ref={seeComplete}
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          className={loaded ? 'loaded' : undefined}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      )}
    </span>
  );
}
