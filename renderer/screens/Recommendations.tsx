import '../styles/catalog.css';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Recommendation } from '../../shared/models.ts';
import { BoxArt } from '../components/catalog/BoxArt.tsx';
import { StarsShown } from '../components/catalog/Stars.tsx';
import { cardMeta, ratingNumber } from '../components/catalog/format.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { countOf } from '../components/LiveRegion.tsx';
import { ScreenFrame } from '../components/ScreenFrame.tsx';
import { Loading, SkeletonGrid } from '../components/Skeleton.tsx';
import { accountQueries, useAddToInstantQueue } from '../queries/account.ts';
import { appErrorOf } from '../queries/call.ts';
import { queueQueries } from '../queries/queue.ts';
import { useNavigation } from '../router.ts';

/** Titles the service predicts you'll like, best first, each one click from the instant queue. */
export function RecommendationsScreen() {
  const recs = useInfiniteQuery(accountQueries.recommendations());
  const queue = useQuery(queueQueries.list('instant'));
  const queued = new Set(queue.data?.items.map((i) => i.ref));
  const items = recs.data?.pages.flatMap((p) => p.items) ?? [];
  const total = recs.data?.pages[0]?.total ?? 0;
  return (
    <ScreenFrame title="Recommendations" count={recs.data ? countOf(total, 'recommendation') : null} lede="Picked from your ratings and what you’ve watched. Rate more titles to sharpen them.">
      {recs.isPending && (
        <Loading label="Loading recommendations…">
          <SkeletonGrid count={12} />
        </Loading>
      )}
      {recs.isError && <ErrorMessage error={appErrorOf(recs.error)} onRetry={() => void recs.refetch()} />}
      {recs.data && items.length === 0 && (
        <div className="empty-state">
          <strong>No recommendations yet.</strong>
          <span>Rate a few titles you’ve seen and Marquee will suggest more.</span>
        </div>
      )}
      {items.length > 0 && (
        <ul className="rec-grid" aria-label="Recommended titles">
          {items.map((t) => (
            <RecommendationCard key={t.ref} title={t} queued={queued.has(t.ref)} />
          ))}
        </ul>
      )}
      {recs.hasNextPage && (
        <div className="grid-more">
          <button type="button" className="button" onClick={() => void recs.fetchNextPage()} disabled={recs.isFetchingNextPage}>
            {recs.isFetchingNextPage ? 'Loading more…' : 'Show more'}
          </button>
        </div>
      )}
    </ScreenFrame>
  );
}

function RecommendationCard({ title, queued }: { title: Recommendation; queued: boolean }) {
  const nav = useNavigation();
  const add = useAddToInstantQueue();
  const inQueue = queued || add.isSuccess;
  return (
    <li className="rec-card">
      <button type="button" className="title-card" onClick={() => nav.openTitle(title.ref)} title={title.title}>
        <BoxArt art={title.boxArt} />
        <span className="title-card-name">{title.title}</span>
        <span className="title-card-meta">{cardMeta(title)}</span>
      </button>
      <span className="rec-predicted">
        <StarsShown value={title.predicted} label="Predicted for you" />
        <span className="muted small" aria-hidden="true">
          {ratingNumber(title.predicted)}
        </span>
      </span>
      <button
        type="button"
        className={inQueue ? 'button small' : 'button small primary'}
        aria-label={inQueue ? `In queue: ${title.title}` : `Add to queue: ${title.title}`}
        disabled={inQueue || add.isPending}
        onClick={() => add.mutate(title.ref)}
      >
        {inQueue ? 'In queue ✓' : add.isPending ? 'Adding…' : 'Add to queue'}
      </button>
      {add.isError && <ErrorMessage error={appErrorOf(add.error)} compact />}
    </li>
  );
}
