import { QueryCache, QueryClient } from '@tanstack/react-query';
import type { AppError } from '../../shared/models.ts';
import { appErrorOf } from './call.ts';
import { markOffline, markReachable, statusKeys } from './status.ts';

/** Kinds a retry cannot fix: the person has to act (sign in, change input) or wait for the quota. */
const FINAL_KINDS = new Set<AppError['kind']>(['auth', 'invalid', 'not_found', 'quota', 'conflict']);

function shouldRetry(failures: number, error: unknown): boolean {
  return failures < 2 && !FINAL_KINDS.has(appErrorOf(error).kind);
}

/**
 * The app's one query cache. Queries stay fresh for a minute (the core's ETag cache revalidates
 * underneath); an offline failure anywhere marks the app offline, the next success marks it back.
 */
export function createQueryClient(): QueryClient {
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
