import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { QueueItem, QueueKind } from '../../../shared/models.ts';
import { splitQueue } from '../../../shared/pure/queue-order.ts';
import { queueQueries } from '../../queries/queue.ts';

const isAvailableNow = (item: QueueItem) => /^available/.test(item.availability);

/**
 * The queue as the screen shows it: read from the cache, split into the ordered titles and those
 * saved for later, and narrowed to the titles available now when the person asks.
 */
export function useQueueView(kind: QueueKind) {
  const query = useQuery(queueQueries.list(kind));
  const [availableOnly, setAvailableOnly] = useState(false);
  const { available, saved } = useMemo(() => splitQueue(query.data?.items ?? []), [query.data]);
  const shown = useMemo(
    () => (availableOnly ? available.filter(isAvailableNow) : available),
    [available, availableOnly],
  );
  const order = useMemo(() => shown.map((i) => i.ref), [shown]);
  // Positions in a list the filter thinned out would be ambiguous: drag only when it hides nothing.
  const sortable = !availableOnly || shown.length === available.length;
  return { query, available, saved, shown, order, sortable, availableOnly, setAvailableOnly };
}

export type QueueView = ReturnType<typeof useQueueView>;
