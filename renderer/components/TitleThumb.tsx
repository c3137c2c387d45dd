import type { TitleSummary } from '../../shared/models.ts';
import { BoxArt } from './catalog/BoxArt.tsx';
import { cardMeta } from './catalog/format.ts';
import { useNavigation } from '../router.ts';

/** A list row's title: small box art and the name (a button that opens the title), year and type below. */
export function TitleThumb({ title }: { title: TitleSummary }) {
  const nav = useNavigation();
  return (
    <div className="title-thumb">
      <BoxArt art={title.boxArt} size="small" className="thumb" />
      <div className="title-thumb-text">
        <button type="button" className="title-thumb-name" onClick={() => nav.openTitle(title.ref)}>
          {title.title}
        </button>
        <span className="title-thumb-meta">{cardMeta(title)}</span>
      </div>
    </div>
  );
}
