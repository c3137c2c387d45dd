import '../styles/catalog.css';
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import type { Page, QueueKind, Recommendation, TitleState } from '../../shared/models.ts';
import { BoxArt } from '../components/catalog/BoxArt.tsx';
import { StarsShown } from '../components/catalog/Stars.tsx';
import { cardMeta, ratingNumber } from '../components/catalog/format.ts';
import { queueOffer, offerWords, type OfferContext, type QueueOffer } from '../components/catalog/queue-offer.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { countOf } from '../words.ts';
import { ScreenFrame } from '../components/ScreenFrame.tsx';
import { Loading, SkeletonGrid } from '../components/Skeleton.tsx';
import { accountQueries } from '../queries/account.ts';
import { appErrorOf } from '../queries/call.ts';
import { queueQueries } from '../queries/queue.ts';
import { titleQueries, useAddToQueue } from '../queries/title.ts';
import { useNavigation } from '../router.ts';

/** Titles the service predicts you'll like, best first, each one click from the queue that takes it. */
export function RecommendationsScreen() {
  const recs = useInfiniteQuery(accountQueries.recommendations());
  const pages = recs.data?.pages ?? [];
  const offers = useOfferContext(pages);
  const items = pages.flatMap((p) => p.items);
  const total = pages[0]?.total ?? 0;
  return (
    <ScreenFrame
      title="Recommendations"
      count={recs.data ? countOf(total, 'recommendation') : null}
      lede="Picked from your ratings and what you’ve watched. Rate more titles to sharpen them."
    >
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
            <RecommendationCard key={t.ref} title={t} offer={queueOffer(t, offers(t.ref))} />
          ))}
        </ul>
      )}
      {recs.hasNextPage && (
        <div className="grid-more">
          <button
            type="button"
            className="button"
            onClick={() => void recs.fetchNextPage()}
            disabled={recs.isFetchingNextPage}
          >
            {recs.isFetchingNextPage ? 'Loading more…' : 'Show more'}
          </button>
        </div>
      )}
    </ScreenFrame>
  );
}

/** What decides each card's queue action: both queues, the titles' states (one request a page) and whether the subscriber streams. */
function useOfferContext(pages: readonly Page<Recommendation>[]): (ref: string) => OfferContext {
  const instant = useQuery(queueQueries.list('instant')).data;
  const disc = useQuery(queueQueries.list('disc')).data;
  const canStream = useQuery(accountQueries.user()).data?.canInstantWatch ?? false;
  const states = useQueries({
    queries: pages.map((p) => titleQueries.states(p.items.map((t) => t.ref))),
    combine: (results) => Object.assign({}, ...results.map((r) => r.data ?? {})) as Record<string, TitleState>,
  });
  const queues = { ...(instant ? { instant } : {}), ...(disc ? { disc } : {}) };
  return (ref) => ({ queues, states: states[ref], canStream });
}

function RecommendationCard({ title, offer }: { title: Recommendation; offer: QueueOffer }) {
  const nav = useNavigation();
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
      <OfferAction titleRef={title.ref} name={title.title} offer={offer} />
    </li>
  );
}

/** The card's queue button: the add its title allows, or where it already is, or why there is none. */
function OfferAction({ titleRef, name, offer }: { titleRef: string; name: string; offer: QueueOffer }) {
  const queue: QueueKind = offer.kind === 'add' || offer.kind === 'has' ? offer.queue : 'instant';
  const add = useAddToQueue(titleRef, queue);
  const words = offerWords(offer);
  if (offer.kind === 'none' || offer.kind === 'at-home') return <span className="muted small rec-offer">{words}</span>;
  const adding = offer.kind === 'add';
  return (
    <>
      <button
        type="button"
        className={adding ? 'button small primary' : 'button small'}
        aria-label={`${words.replace(/ ✓$/, '')}: ${name}`}
        aria-busy={offer.kind === 'unknown' || undefined}
        disabled={!adding || add.isPending}
        onClick={() => add.mutate({ placement: 'bottom' })}
      >
        {add.isPending ? 'Adding…' : words}
      </button>
      {add.isError && <ErrorMessage error={appErrorOf(add.error)} compact />}
    </>
  );
}
