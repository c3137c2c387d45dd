import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Queue, QueueKind } from '../../shared/models.ts';
import { queueQueries } from './queue.ts';
import { statusKeys } from './status.ts';

/**
 * The titles whose edit waits in the core's outbox (offline), marked "Pending" in the queue: held
 * once, in the query cache beside the other states the core's events feed (never fetched). They
 * show while the queue says edits wait, and go when the core reports none waiting.
 */
export type PendingMarks = ReadonlySet<string>;

const NONE: PendingMarks = new Set();

export const pendingMarksKey = (kind: QueueKind) => [...statusKeys.all, 'pending-marks', kind] as const;

const pendingMarksQuery = (kind: QueueKind) =>
  queryOptions<PendingMarks>({
    queryKey: pendingMarksKey(kind),
    queryFn: () => NONE,
    initialData: NONE,
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** The marks after an edit of `refs` answered `answer`: added while edits wait, none once none do. */
export function marksAfter(
  now: PendingMarks,
  answer: Pick<Queue, 'pendingEdits'>,
  refs: readonly string[],
): PendingMarks {
  return answer.pendingEdits ? new Set([...now, ...refs]) : NONE;
}

/** The marks to show: none unless the queue shown says edits wait. */
export function shownMarks(queue: Pick<Queue, 'pendingEdits'> | undefined, marks: PendingMarks): PendingMarks {
  return queue?.pendingEdits ? marks : NONE;
}

/** An edit of `refs` was answered: its titles are marked while the core keeps edits waiting. */
export function markPending(client: QueryClient, kind: QueueKind, answer: Queue, refs: readonly string[]): void {
  client.setQueryData<PendingMarks>(pendingMarksKey(kind), (now) => marksAfter(now ?? NONE, answer, refs));
}

/** The core sent every waiting edit: no title is pending. */
export function clearPendingMarks(client: QueryClient, kind: QueueKind): void {
  if (client.getQueryData<PendingMarks>(pendingMarksKey(kind))?.size)
    client.setQueryData<PendingMarks>(pendingMarksKey(kind), NONE);
}

/** The pending marks of one queue, for its rows. */
export function usePendingMarks(kind: QueueKind): PendingMarks {
  const waiting = useQuery({ ...queueQueries.list(kind), select: (queue) => queue.pendingEdits ?? 0 }).data;
  const marks = useQuery(pendingMarksQuery(kind)).data;
  return shownMarks(waiting === undefined ? undefined : { pendingEdits: waiting }, marks);
}
