import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { AuthStatus } from '../../shared/models.ts';
import { call } from './call.ts';
import { statusKeys } from './status.ts';

/** Who is signed in, and a sign-in under way (`pending`), as the core reports it. */
export const authKeys = {
  all: ['auth'] as const,
  status: () => [...authKeys.all, 'status'] as const,
};

export const authQueries = {
  status: () =>
    queryOptions({ queryKey: authKeys.status(), queryFn: () => call('auth.status', {}), staleTime: Infinity }),
};

/**
 * Puts a new auth status in the cache. Signing out (or switching to another account) drops every
 * cached answer that belonged to the previous subscriber; the catalog and app states stay.
 */
export function applyAuthStatus(client: QueryClient, next: AuthStatus): void {
  const before = client.getQueryData<AuthStatus>(authKeys.status());
  client.setQueryData(authKeys.status(), next);
  // By the core's account key, not the user: a status without the user (service unreachable) is the same person.
  const sameAccount = before?.account === next.account && before?.profileId === next.profileId;
  if (before && !sameAccount && (before.signedIn || before.profileId !== next.profileId)) clearUserData(client);
}

/** Whose screens these are: a new value means another person's (App remounts everything kept per person). */
export function accountOf(status: AuthStatus): string {
  return status.account ?? `${status.profileId}:signed-out`;
}

/**
 * Whether the account signed in now is still the one the calling screen was made for: an answer
 * that arrives after another account signed in is the previous account's, and stays out of the cache.
 */
export function useStillSameAccount(): () => boolean {
  const client = useQueryClient();
  const current = useCallback(() => client.getQueryData<AuthStatus>(authKeys.status())?.account ?? null, [client]);
  const [mine] = useState(current);
  return useCallback(() => current() === mine, [current, mine]);
}

/** What belongs to nobody in particular: sign-in state, services, the status line, the preferences. */
function isAppWide(key: readonly unknown[]): boolean {
  if (key[0] === statusKeys.all[0]) return key[1] !== 'pending-marks';
  return key[0] === authKeys.all[0] || key[0] === 'profiles' || key[0] === 'preferences';
}

function clearUserData(client: QueryClient): void {
  client.removeQueries({ predicate: (query) => !isAppWide(query.queryKey) });
}

/** One auth operation whose answer becomes the auth status. */
function useAuthMutation<I>(run: (input: I) => Promise<AuthStatus>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: (status) => applyAuthStatus(client, status) });
}

export const useSignIn = () =>
  useAuthMutation((mode: 'loopback' | 'oob' | undefined) => call('auth.signIn', mode ? { mode } : {}));
export const useCompleteWithPin = () => useAuthMutation((pin: string) => call('auth.completeWithPin', { pin }));
export const useCancelSignIn = () => useAuthMutation((_: void) => call('auth.cancel', {}));
export const useSignOut = () => useAuthMutation((_: void) => call('auth.signOut', {}));
