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

export const queueQueries = {
  /** The whole queue (at most 500 entries, the service's limit). */
  list: (kind: QueueKind, view: QueueView = 'all') =>
    queryOptions({ queryKey: queueKeys.list(kind, view), queryFn: () => call('queue.list', { kind, view, max: 500 }) }),
};

/** Stops a bulk change of the queue under way (its progress events then say it finished); a failure changes nothing. */
export const useCancelBulk = (kind: QueueKind) => useMutation({ mutationFn: () => call('queue.cancelBulk', { kind }) });
