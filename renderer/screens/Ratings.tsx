import '../styles/catalog.css';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Rating, UserRating } from '../../shared/models.ts';
import { StarsInput, StarsShown } from '../components/catalog/Stars.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { compareTitles, countOf } from '../words.ts';
import { ScreenFrame } from '../components/ScreenFrame.tsx';
import { SegmentedControl, type Segment } from '../components/SegmentedControl.tsx';
import { Loading, SkeletonRows } from '../components/Skeleton.tsx';
import { TitleThumb } from '../components/TitleThumb.tsx';
import { accountQueries, useRateTitle } from '../queries/account.ts';
import { appErrorOf } from '../queries/call.ts';
import { useNavigation } from '../router.ts';

type Sort = 'rating' | 'title';
const SORTS: Segment<Sort>[] = [
  { value: 'rating', label: 'Your rating' },
  { value: 'title', label: 'Title' },
];

function sortRatings(ratings: Rating[], sort: Sort): Rating[] {
  const score = (r: UserRating | null) => (typeof r === 'number' ? r : r === 'not_interested' ? 0 : -1);
  const copy = [...ratings];
  if (sort === 'title') copy.sort((a, b) => compareTitles(a.title.title, b.title.title));
  else copy.sort((a, b) => score(b.userRating) - score(a.userRating) || compareTitles(a.title.title, b.title.title));
  return copy;
}

/** The titles you rated, with stars to change or clear each rating. */
export function RatingsScreen() {
  const ratings = useInfiniteQuery(accountQueries.ratings());
  const [sort, setSort] = useState<Sort>('rating');
  const all = useMemo(() => ratings.data?.pages.flatMap((p) => p.items) ?? [], [ratings.data]);
  const sorted = useMemo(() => sortRatings(all, sort), [all, sort]);
  const total = ratings.data?.pages[0]?.total ?? 0;
  return (
    <ScreenFrame
      title="Ratings"
      count={ratings.data ? countOf(total, 'rated title') : null}
      lede="Your ratings teach Marquee what you like: change one and your recommendations follow."
    >
      {ratings.isPending && (
        <Loading label="Loading your ratings…">
          <SkeletonRows count={8} />
        </Loading>
      )}
      {ratings.isError && <ErrorMessage error={appErrorOf(ratings.error)} onRetry={() => void ratings.refetch()} />}
      {ratings.data && all.length === 0 && <NoRatings />}
      {sorted.length > 0 && (
        <>
          <div className="toolbar">
            <span className="muted small" id="ratings-sort-label">
              Sort by
            </span>
            <SegmentedControl labelledBy="ratings-sort-label" segments={SORTS} value={sort} onChange={setSort} />
          </div>
          <ul className="account-list" aria-label="Rated titles">
            {sorted.map((r) => (
              <RatingRow key={r.title.ref} rating={r} />
            ))}
          </ul>
          {ratings.hasNextPage && (
            <div className="grid-more">
              <button
                type="button"
                className="button"
                onClick={() => void ratings.fetchNextPage()}
                disabled={ratings.isFetchingNextPage}
              >
                {ratings.isFetchingNextPage ? 'Loading more…' : 'Show more'}
              </button>
            </div>
          )}
        </>
      )}
    </ScreenFrame>
  );
}

function RatingRow({ rating }: { rating: Rating }) {
  const rate = useRateTitle();
  const ref = rating.title.ref;
  return (
    <li className="account-row">
      <TitleThumb title={rating.title} />
      <div className="account-row-side">
        <div role="group" aria-label={`Your rating of ${rating.title.title}`}>
          <StarsInput value={rating.userRating} onRate={(value) => rate.mutate({ ref, rating: value })} />
        </div>
        {rating.predicted !== null && rating.userRating === null && (
          <StarsShown value={rating.predicted} label="Predicted for you" />
        )}
        {rate.isError && <ErrorMessage error={appErrorOf(rate.error)} compact />}
      </div>
    </li>
  );
}

function NoRatings() {
  const nav = useNavigation();
  return (
    <div className="empty-state">
      <strong>You haven’t rated anything yet.</strong>
      <span>Open a title you’ve seen and give it stars.</span>
      <button type="button" className="button" onClick={() => nav.go({ name: 'browse' })}>
        Browse the catalog
      </button>
    </div>
  );
}
