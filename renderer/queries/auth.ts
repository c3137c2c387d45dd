import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
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
  const sameUser =
    before?.signedIn && next.signedIn && before.user?.id === next.user?.id && before.profileId === next.profileId;
  if (before && !sameUser && (before.signedIn || before.profileId !== next.profileId)) clearUserData(client);
}

function clearUserData(client: QueryClient): void {
  const appWide = (key: readonly unknown[]) =>
    key[0] === authKeys.all[0] || key[0] === 'profiles' || (key[0] === statusKeys.all[0] && key[1] !== 'pending-marks');
  client.removeQueries({ predicate: (query) => !appWide(query.queryKey) });
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
