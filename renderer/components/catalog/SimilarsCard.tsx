import type { Ref, TitleSummary } from '../../../shared/models.ts';
import { useNavigation } from '../../router.ts';
import { BoxArt } from './BoxArt.tsx';
import { cardMeta } from './format.ts';

/**
 * A similar title in the "More like this" row: its name at once (from the title's own request),
 * its poster and "year · type" once `catalog.similars` brings them. The same button throughout,
 * so focus stays put when the art arrives.
 */
export function SimilarsCard({ similar, summary }: { similar: Ref; summary: TitleSummary | undefined }) {
  const nav = useNavigation();
  const name = summary?.title || similar.name;
  return (
    <button type="button" className="title-card" onClick={() => nav.openTitle(similar.ref)} title={name}>
      <BoxArt art={summary?.boxArt} />
      <span className="title-card-name">{name}</span>
      {summary ? (
        <span className="title-card-meta">{cardMeta(summary)}</span>
      ) : (
        <span className="skeleton skeleton-line short title-card-meta-skeleton" aria-hidden="true" />
      )}
    </button>
  );
}
