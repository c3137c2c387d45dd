import { personPath, rel, titlePath, type CategoryScheme } from '../../shared/protocol/index.ts';
import type { PersonRef, TitleRecord } from '../model/title.ts';
import { el, type Attrs, type XmlElement } from './node.ts';

/** Absolute URLs and the small elements every representation shares. */
export interface UrlBase {
  base: string;
}

export function titleUrl(base: string, t: Pick<TitleRecord, 'type' | 'id' | 'series_id'>): string {
  return base + titlePath(t.type, t.id, t.series_id);
}

export function personUrl(base: string, id: number): string {
  return base + personPath(id);
}

export function link(
  href: string,
  relation: string,
  title: string,
  ...expanded: Array<XmlElement | null | undefined | false>
): XmlElement {
  return el('link', { href, rel: relation, title }, ...expanded);
}

export function titleLink(base: string, t: TitleRecord): XmlElement {
  return link(titleUrl(base, t), rel.title, t.title);
}

export function personLink(base: string, p: PersonRef, relation: string = rel.person): XmlElement {
  return link(personUrl(base, p.id), relation, p.name);
}

export function category(
  base: string,
  scheme: CategoryScheme,
  term: string,
  label: string = term,
  extra?: Attrs,
): XmlElement {
  return el('category', { scheme: `${base}/categories/${scheme}`, label, term, ...extra });
}
