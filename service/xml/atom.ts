import { rel } from '../../shared/protocol/index.ts';
import type { XmlElement } from './node.ts';
import { escapeAttr, escapeText } from './xml.ts';

/** One item of a feed: a title in a queue, a rental, a recommendation, a rating. */
export interface AtomEntry {
  /** A stable URL naming the item (the queue item id, the title id…). */
  id: string;
  title: string;
  /** Unix seconds. */
  updated: number;
  /** The resource the entry is about (usually the title). */
  link: string;
  summary?: string;
  categories?: Array<{ scheme: string; term: string; label?: string }>;
}

export interface AtomFeed {
  id: string;
  title: string;
  updated: number;
  /** The feed's own URL (rel="self"). */
  self: string;
  entries: AtomEntry[];
}

/** RFC 3339 in UTC, as Atom (RFC 4287) wants. */
export function rfc3339(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An Atom 1.0 document: one `entry` per item, each with its link. */
export function toAtom(feed: AtomFeed): string {
  let out = '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">';
  out += `<id>${escapeText(feed.id)}</id><title>${escapeText(feed.title)}</title><updated>${rfc3339(feed.updated)}</updated>`;
  out += `<link rel="self" href="${escapeAttr(feed.self)}"/><author><name>Marquee</name></author>`;
  for (const e of feed.entries) {
    out += `<entry><id>${escapeText(e.id)}</id><title>${escapeText(e.title)}</title><updated>${rfc3339(e.updated)}</updated>`;
    out += `<link rel="alternate" href="${escapeAttr(e.link)}"/>`;
    for (const c of e.categories ?? []) {
      out += `<category scheme="${escapeAttr(c.scheme)}" term="${escapeAttr(c.term)}"${c.label !== undefined ? ` label="${escapeAttr(c.label)}"` : ''}/>`;
    }
    if (e.summary !== undefined) out += `<summary>${escapeText(e.summary)}</summary>`;
    out += '</entry>';
  }
  return out + '</feed>';
}

/**
 * The Atom form of a POX list (queue, rental history, recommendations, ratings): one entry per
 * member that has an `id`, titled by its title, linked to the title it is about.
 */
export function atomFromList(root: XmlElement, meta: { title: string; self: string; now: number }): AtomFeed {
  const entries: AtomEntry[] = [];
  for (const item of root.children ?? []) {
    const id = child(item, 'id')?.text;
    if (!id) continue;
    const titleLink = item.children?.find((c) => c.name === 'link' && c.attrs?.rel === rel.title);
    const time = ['updated', 'watched_date', 'shipped_date', 'returned_date']
      .map((n) => child(item, n)?.text)
      .find((t) => t !== undefined);
    entries.push({
      id,
      title: String(child(item, 'title')?.attrs?.regular ?? titleLink?.attrs?.title ?? id),
      updated: time !== undefined ? Number(time) : meta.now,
      link: String(titleLink?.attrs?.href ?? id),
      categories: (item.children ?? [])
        .filter((c) => c.name === 'category' && c.attrs?.scheme !== undefined)
        .map((c) => ({
          scheme: String(c.attrs!.scheme),
          term: String(c.attrs!.term),
          label: String(c.attrs!.label ?? c.attrs!.term),
        })),
    });
  }
  const updated = entries.reduce((max, e) => Math.max(max, e.updated), 0) || meta.now;
  return { id: meta.self, title: meta.title, updated, self: meta.self, entries };
}

function child(node: XmlElement, name: string): XmlElement | undefined {
  return node.children?.find((c) => c.name === name);
}
