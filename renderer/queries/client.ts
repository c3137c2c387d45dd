import { focusManager, QueryCache, QueryClient } from '@tanstack/react-query';
import type { AppError } from '../../shared/models.ts';
import { appErrorOf } from './call.ts';
import { markOffline, markReachable, statusKeys } from './status.ts';

/**
 * Kinds a retry here cannot fix: the person has to act (sign in, change input) or wait for the
 * quota; 'offline' has been retried by the core already (the screen says so at once, and the
 * status line's "back" refetches).
 */
const FINAL_KINDS = new Set<AppError['kind']>(['auth', 'invalid', 'not_found', 'quota', 'conflict', 'offline']);

function shouldRetry(failures: number, error: unknown): boolean {
  return failures < 2 && !FINAL_KINDS.has(appErrorOf(error).kind);
}

/**
 * The window's focus as TanStack Query hears it: its own listener hears only `visibilitychange`,
 * which an Electron window, or a browser window left for another app, never fires.
 */
export function followWindowFocus(target: Window = window): void {
  focusManager.setEventListener((setFocused) => {
    const focus = () => setFocused(true);
    const blur = () => setFocused(false);
    const visibility = () => setFocused(target.document.visibilityState !== 'hidden');
    target.addEventListener('focus', focus);
    target.addEventListener('blur', blur);
    target.document.addEventListener('visibilitychange', visibility);
    return () => {
      target.removeEventListener('focus', focus);
      target.removeEventListener('blur', blur);
      target.document.removeEventListener('visibilitychange', visibility);
    };
  });
}

/**
 * The app's one query cache. Queries stay fresh for a minute (the core's ETag cache revalidates
 * underneath); an offline failure anywhere marks the app offline, the next success marks it back.
 */
export function createQueryClient(): QueryClient {
  followWindowFocus();
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (appErrorOf(error).kind === 'offline') markOffline(client);
      },
      onSuccess: (_data, query) => {
        if (query.queryKey[0] !== statusKeys.all[0]) markReachable(client);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 60_000, gcTime: 10 * 60_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
