import type { ServiceContext } from '../../context.ts';
import type { Change } from '../../model/change.ts';
import { getTitles } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import { titleUrl } from '../../xml/links.ts';

/** An event as a stream sends it: its number (`id:`), name (`event:`) and JSON `data:`. */
export interface StreamEvent {
  seq: number;
  /** The subscriber it is for; null: every stream (the catalog). */
  userId: string | null;
  text: string;
}

/** `id:`, `event:` and `data:` lines of one Server-Sent Event. */
export function eventText(id: number | undefined, name: string, data: object): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Change rows as events (revocations are not events: the hub ends the token's streams). Titles are
 * read once for the batch, from the cache of the catalog generation.
 */
export async function eventsOf(svc: ServiceContext, changes: readonly Change[]): Promise<StreamEvent[]> {
  const ids = changes.filter((c) => c.kind === 'title_state' || c.kind === 'rating').map(titleIdOf);
  const titles = await getTitles(svc.db, ids);
  const events: StreamEvent[] = [];
  for (const c of changes) {
    const data = dataOf(svc.baseUrl, c, titles);
    if (data) events.push({ seq: c.seq, userId: c.userId, text: eventText(c.seq, c.kind, data) });
  }
  return events;
}

function titleIdOf(c: Change): number {
  return Number(c.kind === 'title_state' ? c.value : c.subject);
}

/** What an event says: the resource that changed (its URL), and its new etag or value. */
function dataOf(base: string, c: Change, titles: ReadonlyMap<number, TitleRecord>): object | undefined {
  const user = `${base}/users/${c.userId}`;
  switch (c.kind) {
    case 'queue':
      return { resource: `${user}/queues/${c.subject}`, queue: c.subject, etag: c.value };
    case 'title_state': {
      const ref = refOf(base, titles, titleIdOf(c));
      return ref === undefined
        ? undefined
        : { resource: `${user}/title_states?title_refs=${encodeURIComponent(ref)}`, title_ref: ref, queue: c.subject };
    }
    case 'rating': {
      const ref = refOf(base, titles, titleIdOf(c));
      return ref === undefined
        ? undefined
        : { resource: `${user}/ratings/title/actual/${c.subject}`, title_ref: ref, rating: ratingOf(c.value) };
    }
    case 'catalog':
      return { generation: Number(c.value) };
    default:
      return undefined;
  }
}

function refOf(base: string, titles: ReadonlyMap<number, TitleRecord>, id: number): string | undefined {
  const t = titles.get(id);
  return t && titleUrl(base, t);
}

/** Stars 1–5, `not_interested` (stored as 0), or null when the rating was cleared. */
function ratingOf(value: string | null): number | string | null {
  if (value === null) return null;
  return value === '0' ? 'not_interested' : Number(value);
}
