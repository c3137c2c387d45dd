import { queryOptions, useMutation } from '@tanstack/react-query';
import type { QueueKind, QueueView } from '../../shared/models.ts';
import { call } from './call.ts';

/** Keys of the queue resource: every view of one queue lives under queueKeys.kind(kind). */
export const queueKeys = {
  all: ['queue'] as const,
  kind: (kind: QueueKind) => [...queueKeys.all, kind] as const,
  list: (kind: QueueKind, view: QueueView = 'all') => [...queueKeys.kind(kind), view] as const,
  /** The mutation key of the queue screen's edits (queue-edits.ts). */
  edit: (kind: QueueKind) => [...queueKeys.kind(kind), 'edit'] as const,
};

/** How often a shown queue asks the service again: another device's change shows within this (a 304 when none). */
export const QUEUE_REVALIDATE_MS = 3 * 60_000;

export const queueQueries = {
  /**
   * The whole queue (at most QUEUE_LIMIT entries, the service's limit), asked again whenever the window
   * gets the focus back and every few minutes while shown, focused or not.
   */
  list: (kind: QueueKind, view: QueueView = 'all') =>
    queryOptions({
      queryKey: queueKeys.list(kind, view),
      // No `max`: the core reads the whole queue (QUEUE_LIMIT) and keeps it, so an edit made offline right after still shows.
      queryFn: () => call('queue.list', { kind, view }),
      refetchOnWindowFocus: 'always',
      refetchInterval: QUEUE_REVALIDATE_MS,
      refetchIntervalInBackground: true,
    }),
};

/** Stops a bulk change of the queue under way (its progress events then say it finished); a failure changes nothing. */
export const useCancelBulk = (kind: QueueKind) => useMutation({ mutationFn: () => call('queue.cancelBulk', { kind }) });
