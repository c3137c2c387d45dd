import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, type Preferences, type Theme } from '../../shared/preferences.ts';
import { call } from './call.ts';

export { PAGE_SIZES, type Preferences, type Theme } from '../../shared/preferences.ts';

/**
 * The person's preferences as the core keeps them (theme, page size, density, the timeline
 * folded): read once into the query cache, written through a mutation that shows the choice at
 * once. App-wide, not per account: signing out keeps them (auth.ts).
 */
export const preferenceKeys = {
  all: ['preferences'] as const,
  edit: () => [...preferenceKeys.all, 'edit'] as const,
};

export const preferenceQueries = {
  current: () =>
    queryOptions({
      queryKey: preferenceKeys.all,
      queryFn: () => call('preferences.get', {}),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};

/** The preferences, the defaults until the core has answered (main.tsx asks before the first render). */
export function usePreferences(): Preferences {
  return useQuery(preferenceQueries.current()).data ?? DEFAULT_PREFERENCES;
}

/** Shows `change` at once; returns the preferences shown before, to put back if the core refuses. */
async function showAtOnce(client: QueryClient, change: Partial<Preferences>): Promise<Preferences | undefined> {
  await client.cancelQueries({ queryKey: preferenceKeys.all, exact: true });
  const before = client.getQueryData<Preferences>(preferenceKeys.all);
  client.setQueryData<Preferences>(preferenceKeys.all, { ...(before ?? DEFAULT_PREFERENCES), ...change });
  return before;
}

/**
 * Changes some preferences: shown at once, kept by the core; changes go one after another, and
 * the last one's answer is what the cache keeps. A refused change is taken back (`error` says why).
 */
export function useSetPreferences() {
  const client = useQueryClient();
  const mutationKey = preferenceKeys.edit();
  const mutation = useMutation({
    mutationKey,
    scope: { id: 'preferences' },
    mutationFn: (change: Partial<Preferences>) => call('preferences.set', change),
    onMutate: (change) => showAtOnce(client, change),
    onSuccess: (kept) => {
      if (client.isMutating({ mutationKey }) === 1) client.setQueryData(preferenceKeys.all, kept);
    },
    onError: (_error, _change, before) => {
      if (before) client.setQueryData(preferenceKeys.all, before);
      void client.invalidateQueries({ queryKey: preferenceKeys.all, exact: true });
    },
  });
  return { set: mutation.mutate, error: mutation.error, reset: mutation.reset };
}

/** How long the first render waits for the core's preferences (then it starts with the defaults). */
const FIRST_READ_WAIT_MS = 3000;

/**
 * Reads the preferences into the cache and applies the theme, before the first render, so the
 * app never paints in the wrong theme once it has loaded. Never rejects.
 */
export async function loadPreferencesBeforeRender(client: QueryClient): Promise<void> {
  const read = client.fetchQuery({ ...preferenceQueries.current(), retry: 1 }).then(
    (preferences) => applyTheme(preferences.theme),
    () => undefined, // usePreferences asks again once the app is up
  );
  await Promise.race([read, new Promise((resolve) => setTimeout(resolve, FIRST_READ_WAIT_MS))]);
}

/** [data-theme] on <html> for a pinned theme; none follows the system. */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
}
