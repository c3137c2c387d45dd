import type { Page, QueueItem, QueueKind, Rating, RentalItem } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import type { QueueSync } from '../queue/index.ts';

/** Everything an export writes, read whole from the service (pages of 500, the service's largest). */
const PAGE = 500;

/** A queue as it is now: available titles by position, then the saved ones. */
export async function queueItems(sync: Pick<QueueSync, 'read'>, kind: QueueKind): Promise<QueueItem[]> {
  const queue = await sync.read(kind);
  return [...queue.items].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
}

export function allRatings(client: Pick<Client, 'ratedTitles'>): Promise<Rating[]> {
  return allPages((paging) => client.ratedTitles(paging));
}

export function allHistory(client: Pick<Client, 'rentalHistory'>): Promise<RentalItem[]> {
  return allPages((paging) => client.rentalHistory('all', paging));
}

async function allPages<T>(read: (paging: { start: number; max: number }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const page = await read({ start: items.length, max: PAGE });
    items.push(...page.items);
    if (page.items.length === 0 || items.length >= page.total) return items;
  }
}
