import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alert, AlertList, AlertSettings } from '../../shared/alerts.ts';
import type { Queue } from '../../shared/models.ts';
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

/** An alert's action on its title in its queue: to the top, or out. */
export type AlertAction = { alert: Alert; action: 'top' | 'remove' };

function editOf({ alert, action }: AlertAction): Promise<Queue> {
  const { queue: kind, ref } = alert;
  return action === 'top' ? call('queue.move', { kind, ref, position: 1 }) : call('queue.remove', { kind, ref });
}

/** An alert's action on its title; then the alert is read, and the queue's new state is in the cache. */
export function useAlertAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: AlertAction) => {
      const queue = await editOf(v);
      return { queue, list: await call('alerts.markRead', { ids: [v.alert.id] }) };
    },
    onSuccess: ({ queue, list }) => {
      client.setQueryData<AlertList>(alertKeys.list(), list);
      client.setQueryData(queueKeys.list(queue.kind, queue.view), queue);
      void client.invalidateQueries({ queryKey: queueKeys.kind(queue.kind) });
    },
  });
}
