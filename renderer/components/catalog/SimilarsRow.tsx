import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { Ref, TitleSummary } from '../../../shared/models.ts';
import { catalogQueries } from '../../queries/catalog.ts';
import { SimilarsCard } from './SimilarsCard.tsx';

/**
 * "More like this": the similar titles' names come with the title (its one request); their box
 * art is `catalog.similars`, asked for only once the row scrolls into view.
 */
export function SimilarsRow({ similars, similarsRef }: { similars: Ref[]; similarsRef: string | null }) {
  const [row, seen] = useSeenOnce<HTMLUListElement>();
  const list = useQuery(catalogQueries.similars(similarsRef ?? '', seen && similarsRef !== null));
  const summaries = summariesByRef(list.data?.items);
  return (
    <section className="title-section" aria-labelledby="similars-heading">
      <h3 id="similars-heading">More like this</h3>
      <ul ref={row} className="title-row" aria-label="Similar titles" aria-busy={list.isFetching && !list.data}>
        {similars.map((s) => (
          <li key={s.ref}>
            <SimilarsCard similar={s} summary={summaries.get(s.ref)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function summariesByRef(items: TitleSummary[] | undefined): Map<string, TitleSummary> {
  return new Map((items ?? []).map((t) => [t.ref, t]));
}

/** Margin below the viewport within which the row counts as seen (its art is on its way as it arrives). */
const SEEN_MARGIN = '0px 0px 200px 0px';

/**
 * A callback ref and whether its element has been in view once. Without IntersectionObserver
 * (an old or a test environment) the element counts as seen at once: the art then loads with the title.
 */
function useSeenOnce<E extends Element>(): [(element: E | null) => void, boolean] {
  const [element, setElement] = useState<E | null>(null);
  const [seen, setSeen] = useState(false);
  const ref = useCallback((e: E | null) => setElement(e), []);
  const observable = typeof IntersectionObserver !== 'undefined';
  useEffect(() => {
    if (seen || !element || !observable) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: SEEN_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen, observable]);
  return [ref, seen || (!observable && element !== null)];
}
