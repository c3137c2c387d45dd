import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppPreferences } from '../../shared/models.ts';
import { call } from './call.ts';

/**
 * The preferences the core keeps in its settings store (not this window's storage: the web host's
 * address, and so its origin, changes from one launch to the next).
 */
export const appPreferenceKeys = { all: ['app-preferences'] as const };

export const appPreferenceQueries = {
  all: () =>
    queryOptions({
      queryKey: appPreferenceKeys.all,
      queryFn: () => call('preferences.get', {}),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

/** Whether the queue's timeline is folded (undefined until read), and the change, shown at once and kept by the core. */
export function useTimelineCollapsed(): [boolean | undefined, (collapsed: boolean) => void] {
  const client = useQueryClient();
  const { data } = useQuery(appPreferenceQueries.all());
  const { mutate } = useMutation({
    mutationFn: (timelineCollapsed: boolean) => call('preferences.set', { timelineCollapsed }),
    onMutate: (timelineCollapsed) =>
      client.setQueryData<AppPreferences>(appPreferenceKeys.all, (old) => ({ ...old, timelineCollapsed })),
    onSuccess: (prefs) => client.setQueryData(appPreferenceKeys.all, prefs),
    onError: () => void client.invalidateQueries({ queryKey: appPreferenceKeys.all }),
  });
  return [data?.timelineCollapsed, mutate];
}
