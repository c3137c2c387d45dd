import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alert, AlertList, AlertSettings } from '../../shared/alerts.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';

/**
 * Availability alerts in the query cache: the account's alerts (asked again when the core tells
 * of new ones, events.ts), the alert settings, and the writes: mark read, settings, and an
 * alert's action on its title (move to the top, remove), which marks it read too.
 */
export const alertKeys = {
  all: ['alerts'] as const,
  list: () => [...alertKeys.all, 'list'] as const,
  settings: () => [...alertKeys.all, 'settings'] as const,
};

export const alertQueries = {
  list: () => queryOptions({ queryKey: alertKeys.list(), queryFn: () => call('alerts.list', {}) }),
  settings: () =>
    queryOptions({ queryKey: alertKeys.settings(), queryFn: () => call('alerts.settings', {}), staleTime: Infinity }),
};

/** Marks the given alerts read (all when none given). */
export function useMarkAlertsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => call('alerts.markRead', ids ? { ids } : {}),
    onSuccess: (list) => client.setQueryData<AlertList>(alertKeys.list(), list),
  });
}

export function useSetAlertSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<AlertSettings>) => call('alerts.setSettings', patch),
    onSuccess: (settings) => client.setQueryData<AlertSettings>(alertKeys.settings(), settings),
  });
}

/** An alert's action on its title in its queue: to the top, or out; then the alert is read. */
export function useAlertAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ alert, action }: { alert: Alert; action: 'top' | 'remove' }) => {
      if (action === 'top') await call('queue.move', { kind: alert.queue, ref: alert.ref, position: 1 });
      else await call('queue.remove', { kind: alert.queue, ref: alert.ref });
      return call('alerts.markRead', { ids: [alert.id] });
    },
    onSuccess: (list, { alert }) => {
      client.setQueryData<AlertList>(alertKeys.list(), list);
      void client.invalidateQueries({ queryKey: queueKeys.kind(alert.queue) });
    },
  });
}
