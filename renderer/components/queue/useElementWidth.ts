import { useCallback, useState } from 'react';

/**
 * The content width of the element the returned ref is put on, kept current by a ResizeObserver
 * (the queue narrows when the title panel opens). 0 until it is laid out.
 */
export function useElementWidth<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [width, setWidth] = useState(0);
  const [observer] = useState(() =>
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) => setWidth(Math.floor(entries[0]?.contentRect.width ?? 0))),
  );
  const ref = useCallback(
    (element: T | null) => {
      observer?.disconnect();
      if (!element) return;
      setWidth(Math.floor(element.getBoundingClientRect().width));
      observer?.observe(element);
    },
    [observer],
  );
  return [ref, width];
}
