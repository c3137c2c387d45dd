import { useEffect, useRef } from 'react';
import type { TitleSummary } from '../../../shared/models.ts';
import { useNavigation } from '../../router.ts';
import { TitleCard } from './TitleCard.tsx';

export interface MorePages {
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * Posters filling the width. With `more`, the next page loads when the end of the grid scrolls
 * into view, and a "Show more" button does the same from the keyboard.
 */
export function TitleGrid({ titles, label, more }: { titles: TitleSummary[]; label: string; more?: MorePages }) {
  const nav = useNavigation();
  const open = nav.location.panel?.type === 'title' ? nav.location.panel.ref : null;
  return (
    <>
      <ul className="title-grid" aria-label={label}>
        {titles.map((title) => (
          <li key={title.ref}>
            <TitleCard title={title} selected={title.ref === open} />
          </li>
        ))}
        {more?.loadingMore && <GridSkeletonCards count={6} />}
      </ul>
      {more && <MoreButton more={more} />}
    </>
  );
}

/** The end of a paged grid: loads the next page on sight (IntersectionObserver) or on a press. */
function MoreButton({ more }: { more: MorePages }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadingMore, loadMore } = more;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || loadingMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, loadMore]);
  if (!hasMore) return null;
  return (
    <div className="grid-more" ref={sentinel}>
      <button type="button" className="button" onClick={loadMore} disabled={loadingMore}>
        {loadingMore ? 'Loading more…' : 'Show more'}
      </button>
    </div>
  );
}

/** Poster-shaped grey cards inside a grid (as list items, hidden from assistive technology). */
export function GridSkeletonCards({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <li key={`skeleton-${i}`} className="title-card-skeleton" aria-hidden="true">
          <span className="skeleton skeleton-poster" />
          <span className="skeleton skeleton-line" />
          <span className="skeleton skeleton-line short" />
        </li>
      ))}
    </>
  );
}
