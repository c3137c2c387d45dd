import { rel } from '../../shared/protocol/index.ts';
import type { IndexTitle } from '../model/title.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { link, personLink, titleUrl } from './links.ts';
import { deliveryFormats } from './title-parts.ts';
import { titleCategories } from './title.ts';

/**
 * A `title_index_item` as an element tree: what `output=json` maps, and the reference the string
 * renderer (index-item.ts) must match byte for byte.
 */
export function indexItemElement(base: string, t: IndexTitle): XmlElement {
  return el(
    'title_index_item',
    null,
    textEl('id', titleUrl(base, t)),
    textEl('title', t.title),
    t.release_year !== null && textEl('release_year', t.release_year),
    textEl('updated', t.updated),
    titleCategories(base, t),
    t.cast.map((p) => personLink(base, p, rel.personActor)),
    t.directors.map((p) => personLink(base, p, rel.personDirector)),
    link(`${base}/web/titles/${t.id}`, rel.webPage, 'web page'),
    deliveryFormats(base, t.formats),
  );
}
