import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Events } from '../../shared/ipc.ts';
import type { QueueKind, QueueProgress } from '../../shared/models.ts';
import { localState } from './local.ts';

/**
 * Small app-wide states fed by the core's events (see events.ts), read by the status line, the
 * sidebar's connection dot and the queue screen. They live in the query cache, never fetched.
 */
export interface Connectivity {
  online: boolean;
  pendingEdits: number;
}
export interface QuotaNotice extends Readonly<Events['quota.exceeded']> {
  /** Date.now() milliseconds after which requests may go again. */
  until: number;
}
/** The embedded service's supervision as the host tells it: restarting, or back (since `at`, ms). */
export interface ServiceNotice extends Readonly<Events['service.changed']> {
  at: number;
}
export interface ConflictNotice extends Readonly<Events['queue.conflict']> {
  /** When it happened (ms): a new notice replaces an older one. */
  at: number;
}

/** A queue another device changed, read again by the core (not the app's own edits), and when (ms). */
export interface ElsewhereNotice {
  kind: QueueKind;
  at: number;
}

export const statusKeys = {
  all: ['status'] as const,
  connectivity: () => [...statusKeys.all, 'connectivity'] as const,
  quota: () => [...statusKeys.all, 'quota'] as const,
  conflict: () => [...statusKeys.all, 'conflict'] as const,
  progress: (kind: QueueKind) => [...statusKeys.all, 'progress', kind] as const,
  service: () => [...statusKeys.all, 'service'] as const,
  elsewhere: () => [...statusKeys.all, 'elsewhere'] as const,
};

const ONLINE: Connectivity = { online: true, pendingEdits: 0 };

export const statusQueries = {
  connectivity: () => localState<Connectivity>(statusKeys.connectivity(), ONLINE),
  quota: () => localState<QuotaNotice | null>(statusKeys.quota(), null),
  conflict: () => localState<ConflictNotice | null>(statusKeys.conflict(), null),
  progress: (kind: QueueKind) => localState<QueueProgress | null>(statusKeys.progress(kind), null),
  /** Refs of titles whose edits wait to be sent (the queue's "Pending" marks): kept while the app runs, not while a screen is shown. */
  service: () => localState<ServiceNotice | null>(statusKeys.service(), null),
  elsewhere: () => localState<ElsewhereNotice | null>(statusKeys.elsewhere(), null),
};

/** An offline failure seen by the renderer itself (the web host or the service unreachable). */
export function markOffline(client: QueryClient): void {
  const now = client.getQueryData<Connectivity>(statusKeys.connectivity()) ?? ONLINE;
  if (now.online) client.setQueryData<Connectivity>(statusKeys.connectivity(), { ...now, online: false });
}

/** A successful answer proves the service is reachable again. */
export function markReachable(client: QueryClient): void {
  const now = client.getQueryData<Connectivity>(statusKeys.connectivity());
  if (now && !now.online) client.setQueryData<Connectivity>(statusKeys.connectivity(), { ...now, online: true });
}

/** The current states, for components (each never undefined). */
export const useConnectivity = (): Connectivity => useQuery(statusQueries.connectivity()).data ?? ONLINE;
export const useQuotaNotice = (): QuotaNotice | null => useQuery(statusQueries.quota()).data ?? null;
export const useConflictNotice = (): ConflictNotice | null => useQuery(statusQueries.conflict()).data ?? null;
export const useElsewhereNotice = (): ElsewhereNotice | null => useQuery(statusQueries.elsewhere()).data ?? null;
export const useServiceNotice = (): ServiceNotice | null => useQuery(statusQueries.service()).data ?? null;
export const useQueueProgress = (kind: QueueKind): QueueProgress | null =>
  useQuery(statusQueries.progress(kind)).data ?? null;
