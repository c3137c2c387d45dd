import { memo } from 'react';
import type { TitleSummary } from '../../../shared/models.ts';
import { useNavigation } from '../../router.ts';
import { BoxArt } from './BoxArt.tsx';
import { cardMeta } from './format.ts';

/** A poster with the title's name and "year · type" below; opens the title in the detail panel (memoised: a grid's next page renders only its own cards). */
export const TitleCard = memo(function TitleCard({
  title,
  selected = false,
}: {
  title: TitleSummary;
  selected?: boolean;
}) {
  const nav = useNavigation();
  const meta = cardMeta(title);
  return (
    <button
      type="button"
      className="title-card"
      aria-current={selected ? 'true' : undefined}
      onClick={() => nav.openTitle(title.ref)}
      title={title.title}
    >
      <BoxArt art={title.boxArt} />
      <span className="title-card-name">{title.title}</span>
      {meta && <span className="title-card-meta">{meta}</span>}
    </button>
  );
});
