import type { QueryClient } from '@tanstack/react-query';
import type { Events } from '../../shared/ipc.ts';
import type { MarqueeApi } from '../../shared/ipc.ts';
import { accountKeys } from './account.ts';
import { alertKeys } from './alerts.ts';
import { catalogKeys } from './catalog.ts';
import { applyAuthStatus } from './auth.ts';
import { importKeys } from './import.ts';
import { queueKeys } from './queue.ts';
import { clearPendingMarks } from './queue-pending.ts';
import { predictionKeys } from './queue-predictions.ts';
import { refusedKeys } from './queue-refused.ts';
import { titleKeys } from './title.ts';
import {
  statusKeys,
  type ConflictNotice,
  type Connectivity,
  type ElsewhereNotice,
  type QuotaNotice,
  type ServiceNotice,
} from './status.ts';

/** How long a quota notice without a retry time stays. */
const QUOTA_UNKNOWN_WAIT_S = 60;

/**
 * The core's events into the query cache, so every view reads them like any other query:
 * `queue.changed` → that queue view (other views of the same queue refetch), `auth.changed` → the
 * auth status, the rest → the small status states of status.ts. Returns the unsubscribe.
 */
export function connectEvents(api: Pick<MarqueeApi, 'on'>, client: QueryClient): () => void {
  const offs = [
    api.on('queue.changed', (e) => onQueueChanged(client, e)),
    api.on('auth.changed', (status) => applyAuthStatus(client, status)),
    api.on('connectivity.changed', (e) => onConnectivityChanged(client, e)),
    api.on('quota.exceeded', (e) =>
      client.setQueryData<QuotaNotice>(statusKeys.quota(), {
        ...e,
        until: Date.now() + (e.retryAfter > 0 ? e.retryAfter : QUOTA_UNKNOWN_WAIT_S) * 1000,
      }),
    ),
    api.on('queue.conflict', (e) =>
      client.setQueryData<ConflictNotice>(statusKeys.conflict(), { ...e, at: Date.now() }),
    ),
    api.on('queue.progress', (e) => client.setQueryData(statusKeys.progress(e.kind), e)),
    api.on('queue.refused', (e) => client.setQueryData(refusedKeys.list(), e.edits)),
    api.on('service.changed', (e) => onServiceChanged(client, e)),
    api.on('import.progress', (e) => client.setQueryData(importKeys.progress(), e)),
    api.on('alerts.new', () => void client.invalidateQueries({ queryKey: alertKeys.list() })),
    api.on('live.changed', (e) => onLiveChanged(client, e)),
  ];
  return () => {
    for (const off of offs) off();
  };
}

function onConnectivityChanged(client: QueryClient, e: Events['connectivity.changed']): void {
  client.setQueryData<Connectivity>(statusKeys.connectivity(), { online: e.online, pendingEdits: e.pendingEdits });
  if (e.pendingEdits === 0) for (const kind of ['instant', 'disc'] as const) clearPendingMarks(client, kind);
}

function onQueueChanged(client: QueryClient, { kind, queue }: Events['queue.changed']): void {
  // While the screen's edits are on their way, the last one's answer sets the queue: an earlier write's event would hide the edits made since.
  if (client.isMutating({ mutationKey: queueKeys.edit(kind) }) === 0)
    client.setQueryData(queueKeys.list(kind, queue.view), queue);
  const shown = queueKeys.list(kind, queue.view);
  void client.invalidateQueries({
    queryKey: queueKeys.kind(kind),
    predicate: (query) => query.queryKey.length !== shown.length || query.queryKey[shown.length - 1] !== queue.view,
  });
}

/**
 * Another device changed what these queries show (the core's change stream): they are asked
 * again, a 304 from the core's ETag cache when this screen already holds the new words. A queue
 * came with 'queue.changed' already: only the notice that says why its rows moved.
 */
function onLiveChanged(client: QueryClient, { what, kind }: Events['live.changed']): void {
  if (what === 'queue') {
    if (kind) client.setQueryData<ElsewhereNotice>(statusKeys.elsewhere(), { kind, at: Date.now() });
    return;
  }
  const keys: Record<Exclude<Events['live.changed']['what'], 'queue'>, ReadonlyArray<readonly unknown[]>> = {
    ratings: [titleKeys.all, accountKeys.ratings(), accountKeys.recommendations(), predictionKeys.all],
    title_states: [titleKeys.all],
    // What a subscriber's screens show of availability; catalog pages read it again on their next visit.
    catalog: [queueKeys.all, titleKeys.all],
    all: [catalogKeys.all, titleKeys.all, accountKeys.all, predictionKeys.all],
  };
  for (const queryKey of keys[what]) void client.invalidateQueries({ queryKey });
}

/**
 * The embedded service restarting or back. Back, what is shown is asked for again: the first
 * answer tells the core the service is reachable, and it sends the edits kept meanwhile.
 */
function onServiceChanged(client: QueryClient, change: Events['service.changed']): void {
  client.setQueryData<ServiceNotice>(statusKeys.service(), { ...change, at: Date.now() });
  if (change.state === 'back')
    void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== statusKeys.all[0] });
}
