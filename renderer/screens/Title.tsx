import '../styles/catalog.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TitleDetail } from '../../shared/models.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Loading, SkeletonLines } from '../components/Skeleton.tsx';
import { PersonChips } from '../components/catalog/PersonChips.tsx';
import { SimilarsRow } from '../components/catalog/SimilarsRow.tsx';
import { authQueries } from '../queries/auth.ts';
import { appErrorOf } from '../queries/call.ts';
import { catalogQueries } from '../queries/catalog.ts';
import { useNavigation } from '../router.ts';
import { Seasons } from './title/Seasons.tsx';
import { Synopsis } from './title/Synopsis.tsx';
import { TitleActions } from './title/TitleActions.tsx';
import { TitleFacts } from './title/TitleFacts.tsx';
import { TitleHeader } from './title/TitleHeader.tsx';

/**
 * A title in the detail panel: everything one expanded `catalog.title` request returns. Opened
 * from a list, the list's summary shows at once; a revisit shows the cached title while it revalidates.
 */
export function TitlePanel({ titleRef }: { titleRef: string }) {
  const client = useQueryClient();
  const title = useQuery(catalogQueries.title(titleRef, client));
  const auth = useQuery(authQueries.status());
  const signedIn = auth.data?.signedIn ?? false;
  if (title.isPending) return <TitleSkeleton />;
  if (title.isError) return <ErrorMessage error={appErrorOf(title.error)} onRetry={() => void title.refetch()} />;
  const partial = title.isPlaceholderData;
  return (
    <article className="title-detail" aria-labelledby="title-heading" aria-busy={partial}>
      <TitleHeader title={title.data} signedIn={signedIn} />
      {!partial && <TitleActions title={title.data} signedIn={signedIn} />}
      {partial ? (
        <Loading label="Loading details…">
          <SkeletonLines lines={6} />
        </Loading>
      ) : (
        <TitleBody title={title.data} />
      )}
    </article>
  );
}

function TitleBody({ title }: { title: TitleDetail }) {
  const nav = useNavigation();
  const partOf = title.season ?? title.series;
  return (
    <>
      {partOf && (
        <p className="part-of">
          Part of{' '}
          <button type="button" className="link-button inline" onClick={() => nav.openTitle(partOf.ref)}>
            {partOf.name}
          </button>
        </p>
      )}
      <Synopsis html={title.synopsis} people={[...title.directors, ...title.cast]} titleRef={title.ref} />
      <TitleFacts title={title} />
      {title.directors.length > 0 && (
        <section className="title-section" aria-labelledby="directors-heading">
          <h3 id="directors-heading">{title.directors.length === 1 ? 'Director' : 'Directors'}</h3>
          <PersonChips people={title.directors} label="Directors" />
        </section>
      )}
      {title.cast.length > 0 && (
        <section className="title-section" aria-labelledby="cast-heading">
          <h3 id="cast-heading">Cast</h3>
          <PersonChips people={title.cast} label="Cast" />
        </section>
      )}
      {title.type === 'series' && title.seasons.length > 0 && (
        <Seasons seasons={title.seasons} seriesName={title.title} />
      )}
      {title.similars.length > 0 && (
        <SimilarsRow key={title.ref} similars={title.similars} similarsRef={title.similarsRef} />
      )}
    </>
  );
}

/** The panel's shape while the title loads: a poster, a name, lines of text. */
function TitleSkeleton() {
  return (
    <Loading label="Loading the title…">
      <div className="title-header">
        <span className="skeleton skeleton-poster title-art" />
        <div className="title-heading">
          <SkeletonLines lines={3} width="80%" />
        </div>
      </div>
      <SkeletonLines lines={6} />
    </Loading>
  );
}
