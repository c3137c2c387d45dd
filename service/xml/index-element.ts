import { rel } from '../../shared/protocol/index.ts';
import type { IndexTitle } from '../store/catalog.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { category, link, personLink, titleUrl } from './links.ts';
import { deliveryFormats } from './title-parts.ts';

/**
 * A `title_index_item` as an element tree: what `output=json` maps, and the reference the string
 * renderer (index-item.ts) must match byte for byte.
 */
export function indexItemElement(base: string, t: IndexTitle): XmlElement {
  return el('title_index_item', null,
    textEl('id', titleUrl(base, t)),
    textEl('title', t.title),
    t.release_year !== null && textEl('release_year', t.release_year),
    textEl('updated', t.updated),
    indexCategories(base, t),
    t.cast.map((p) => personLink(base, p, rel.personActor)),
    t.directors.map((p) => personLink(base, p, rel.personDirector)),
    link(`${base}/web/titles/${t.id}`, rel.webPage, 'web page'),
    deliveryFormats(base, t.formats),
  );
}

/** The categories a title shows (as `titleCategories` in title.ts): ratings, genres, formats. */
function indexCategories(base: string, t: IndexTitle): XmlElement[] {
  const out: XmlElement[] = [];
  if (t.mpaa_rating) out.push(category(base, 'mpaa_ratings', t.mpaa_rating));
  if (t.tv_rating) out.push(category(base, 'tv_ratings', t.tv_rating));
  for (const g of t.genres) out.push(category(base, 'genres', g));
  for (const f of t.formats) out.push(category(base, 'title_formats', f.format));
  return out;
}
