import {
  EXPORT_DOCUMENT_VERSION,
  type ExportDocument,
  type ImportEntry,
  type ImportFile,
} from '../../../shared/import-export.ts';
import type { QueueKind, Rating } from '../../../shared/models.ts';
import { rel } from '../../../shared/protocol/rels.ts';
import { ServiceError } from '../types.ts';
import { attr, kids, links, ownText, parseRoot, rootName, text } from '../xml/index.ts';
import { parseQueue } from '../xml/index.ts';
import { entry, serviceRating } from './entries.ts';

/**
 * What a service gives of a queue (its POX `queue` and its Atom feed, as the historical service and
 * Marquee's own export write them) and Marquee's JSON export. These carry the titles' refs, so on
 * the same service every entry matches for certain.
 */

/** A queue's kind from a URL under it (`…/queues/instant/…`), else null. */
function kindIn(url: string | undefined): QueueKind | null {
  const m = /\/queues\/(instant|disc)(?:[/?]|$)/.exec(url ?? '');
  return m ? (m[1] as QueueKind) : null;
}

/** A queue's POX (`<queue>`), available entries by position, then the saved ones. */
export function readQueueXml(body: string): ImportFile {
  const queue = parseQueue(body, 'instant', 'all');
  const root = parseRoot(body, 'queue');
  const kind = kindIn(text(root, 'url_template')) ?? kindIn(queue.items[0]?.itemRef);
  const ordered = [...queue.items].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
  const entries = ordered.map((item, i) =>
    entry({
      line: i + 1,
      title: item.title,
      year: item.year,
      type: item.type === 'series' ? 'series' : 'movie',
      ref: item.ref,
    }),
  );
  return { source: 'queue-xml', label: 'Queue (XML)', entries, skipped: [], kind, hasRatings: false, isList: true };
}

/** A queue's Atom feed: each entry's title and its `alternate` link (the title's ref), in feed order. */
export function readQueueAtom(body: string): ImportFile {
  const feed = parseRoot(body, 'feed');
  const skipped: string[] = [];
  const entries: ImportEntry[] = [];
  kids(feed, 'entry').forEach((e, i) => {
    // The historical feed numbered its entries' titles ("1- The Matrix").
    const title = ownText(kids(e, 'title')[0]).replace(/^\d+-\s+/, '');
    const ref = links(e).find((l) => l.rel === 'alternate' || l.rel === rel.title)?.href || null;
    if (!title && !ref) return void skipped.push(`Entry ${i + 1} has no title.`);
    entries.push(entry({ line: i + 1, title: title || (ref ?? ''), ref }));
  });
  const kind = kindIn(text(feed, 'id')) ?? kindIn(attr(kids(feed, 'link')[0], 'href'));
  return { source: 'queue-atom', label: 'Queue feed (Atom)', entries, skipped, kind, hasRatings: false, isList: true };
}

/**
 * Marquee's export: a queue's titles in order, each with the rating the document gives it, then
 * the rated titles that are in no queue of the document (ratings only). The instant queue is read
 * when the document has it, else the disc queue.
 */
export function readExportDocument(doc: ExportDocument): ImportFile {
  if (typeof doc.version !== 'number' || doc.version > EXPORT_DOCUMENT_VERSION) {
    throw new ServiceError({
      kind: 'invalid',
      message: `This Marquee export is version ${String(doc.version)}; this Marquee reads up to version ${EXPORT_DOCUMENT_VERSION}. Update Marquee to import it.`,
    });
  }
  const kind: QueueKind | null =
    Array.isArray(doc.instant) && doc.instant.length > 0
      ? 'instant'
      : Array.isArray(doc.disc) && doc.disc.length > 0
        ? 'disc'
        : null;
  const items = kind ? [...doc[kind]!].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity)) : [];
  const ratings = new Map(
    (Array.isArray(doc.ratings) ? doc.ratings : [])
      .filter(isRating)
      .map((r) => [r.title.ref, serviceRating(r.userRating)]),
  );
  const listed = items.map((item, i) =>
    entry({
      line: i + 1,
      title: String(item.title ?? ''),
      year: item.year ?? null,
      type: item.type === 'series' ? 'series' : 'movie',
      ref: item.ref,
      rating: ratings.get(item.ref) ?? null,
    }),
  );
  const inQueue = new Set(items.map((i) => i.ref));
  const ratedOnly = (doc.ratings ?? [])
    .filter(isRating)
    .filter((r) => !inQueue.has(r.title.ref) && serviceRating(r.userRating) !== null);
  const rated = ratedOnly.map((r, i) =>
    entry({
      line: listed.length + i + 1,
      title: r.title.title,
      year: r.title.year,
      type: r.title.type === 'series' ? 'series' : 'movie',
      ref: r.title.ref,
      rating: serviceRating(r.userRating),
      listed: false,
    }),
  );
  const entries = [...listed, ...rated].filter((e) => e.title !== '');
  return {
    source: 'marquee-json',
    label: 'Marquee export',
    entries,
    skipped: [],
    kind,
    hasRatings: entries.some((e) => e.rating !== null),
    isList: listed.length > 0,
  };
}

function isRating(value: unknown): value is Rating {
  const r = value as Rating | null;
  return typeof r?.title?.ref === 'string' && typeof r.title.title === 'string';
}

/** The XML root a service file has: 'queue', 'feed', or something Marquee does not import. */
export function serviceXmlRoot(body: string): string | undefined {
  return rootName(body);
}
