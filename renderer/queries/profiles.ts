import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperationInput } from '../../shared/ipc.ts';
import type { ServiceProfile } from '../../shared/models.ts';
import { applyAuthStatus } from './auth.ts';
import { call } from './call.ts';

/** The services the app can talk to (the built-in demo service first) and which one is active. */
export const profileKeys = {
  all: ['profiles'] as const,
  list: () => [...profileKeys.all, 'list'] as const,
};

/** The core's id of the service embedded in the app. */
export const BUILT_IN_PROFILE = 'embedded';

/** What to call a profile on screen. */
export function profileName(profile: Pick<ServiceProfile, 'id' | 'label'>): string {
  return profile.id === BUILT_IN_PROFILE ? 'Built-in demo service' : profile.label;
}

export const profileQueries = {
  list: () => queryOptions({ queryKey: profileKeys.list(), queryFn: () => call('profiles.list', {}) }),
};

/** Saves a profile; the core makes a test call first and refuses one that does not answer. */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OperationInput<'profiles.save'>) => call('profiles.save', input),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.all }),
  });
}

export function useRemoveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('profiles.remove', { id }),
    onSuccess: (list) => client.setQueryData(profileKeys.list(), list),
  });
}

/**
 * Makes a profile the active one: the auth status changes with it (a new service, maybe signed
 * out). `added`: the profile was saved after this page loaded, so the page's image policy (CSP,
 * fixed when it loaded) does not name its service: the page loads again, and its box art shows.
 */
export function useActivateProfile({ added = false }: { added?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('profiles.activate', { id }),
    onSuccess: (status) => {
      if (added) return location.reload();
      applyAuthStatus(client, status);
      void client.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}
