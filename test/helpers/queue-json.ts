import { rel } from '../../shared/protocol/rels.ts';

/**
 * A queue read as the contract's JSON (`output=json`, CONTRACT.md §1): the same document as the
 * XML, for tests that check which titles a queue holds and in what order, not its representation.
 * Those tests read a 300-title queue hundreds of times (polls, one read before each concurrent
 * move): parsed as XML, each read cost the test worker several times what the service spent
 * writing it; JSON.parse reads the same answer for a fraction of that.
 */
export const QUEUE_AS_JSON = 'output=json';

/** One entry of a queue: its own URL, its title's ref, and its position (null: in the saved part). */
export interface QueueEntry {
  itemRef: string;
  ref: string;
  position: number | null;
}

/** The JSON mapping's list: repeated children are an array, a single one an object, none absent. */
type Many<T> = T | T[] | undefined;
const all = <T>(value: Many<T>): T[] => (value === undefined ? [] : ([] as T[]).concat(value));

interface JsonLink {
  href: string;
  rel: string;
}
interface JsonQueueItem {
  id: string;
  position?: string;
  link?: Many<JsonLink>;
}

/** The queue's version and its entries in the answer's order. Throws on anything but a queue. */
export function queueFromJson(body: string): { etag: number; entries: QueueEntry[] } {
  const queue = (JSON.parse(body) as { queue?: { etag: string; queue_item?: Many<JsonQueueItem> } }).queue;
  if (!queue) throw new Error(`not a queue: ${body.slice(0, 300)}`);
  const entries = all(queue.queue_item).map((item) => {
    const ref = all(item.link).find((l) => l.rel === rel.title)?.href;
    if (!ref) throw new Error(`a queue entry without its title's link: ${item.id}`);
    return { itemRef: item.id, ref, position: item.position === undefined ? null : Number(item.position) };
  });
  return { etag: Number(queue.etag), entries };
}
