import { personPath, rel, titlePath } from '../../shared/protocol/index.ts';
import type { IndexTitle, PersonRef } from '../model/title.ts';
import { escapeAttr, escapeText } from './xml.ts';

/** Renders one title's `title_index_item` as XML. */
export type IndexItemWriter = (t: IndexTitle) => string;

/**
 * `title_index_item`s written straight to strings, with no element tree: the index stream's hot
 * path. The bytes are those of `writeElement(indexItemElement(base, t))` (index-element.ts):
 * the same escaping, attribute order and empty-element form; the parts that depend only on the
 * base URL are escaped once here.
 */
export function indexItemWriter(base: string): IndexItemWriter {
  const categoryOpen = (scheme: string) => `<category scheme="${escapeAttr(`${base}/categories/${scheme}`)}" label="`;
  const mpaa = categoryOpen('mpaa_ratings');
  const tv = categoryOpen('tv_ratings');
  const genre = categoryOpen('genres');
  const format = categoryOpen('title_formats');
  const personHref = `<link href="${escapeAttr(base)}`;
  const actorTail = `" rel="${escapeAttr(rel.personActor)}" title="`;
  const directorTail = `" rel="${escapeAttr(rel.personDirector)}" title="`;
  const webPageHref = `<link href="${escapeAttr(`${base}/web/titles/`)}`;
  const webPageTail = `" rel="${escapeAttr(rel.webPage)}" title="web page"/>`;
  const category = (open: string, term: string) => {
    const value = escapeAttr(term);
    return `${open}${value}" term="${value}"/>`;
  };
  const people = (list: PersonRef[], tail: string) => {
    let out = '';
    for (const p of list) out += personHref + escapeAttr(personPath(p.id)) + tail + escapeAttr(p.name) + '"/>';
    return out;
  };
  const formats = (t: IndexTitle) => {
    if (t.formats.length === 0) return '<delivery_formats/>';
    let out = '<delivery_formats>';
    for (const f of t.formats) {
      out += `<availability available_from="${f.available_from}"`;
      if (f.available_until !== null) out += ` available_until="${f.available_until}"`;
      out += '>' + category(format, f.format) + '</availability>';
    }
    return out + '</delivery_formats>';
  };
  return (t) => {
    let out =
      '<title_index_item>' +
      textElement('id', base + titlePath(t.type, t.id, t.series_id)) +
      textElement('title', t.title);
    if (t.release_year !== null) out += textElement('release_year', String(t.release_year));
    out += textElement('updated', String(t.updated));
    if (t.mpaa_rating) out += category(mpaa, t.mpaa_rating);
    if (t.tv_rating) out += category(tv, t.tv_rating);
    for (const g of t.genres) out += category(genre, g);
    for (const f of t.formats) out += category(format, f.format);
    out += people(t.cast, actorTail) + people(t.directors, directorTail);
    out += webPageHref + t.id + webPageTail;
    return out + formats(t) + '</title_index_item>';
  };
}

/** A text-only element; empty text is the empty element, as writeElement writes it. */
function textElement(name: string, text: string): string {
  return text === '' ? `<${name}/>` : `<${name}>${escapeText(text)}</${name}>`;
}
