import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './http';

const MAX_RETRIES = 5;

/** Only a dead server (status > 500) or no response is worth retrying (spec §8). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const status = error instanceof ApiError ? error.status : 0;
  return status === 0 || status > 500;
}

/**
 * `meta.inlineError`: the screen shows this query's or mutation's failure itself (a form's field, a
 * page's message, a table's empty row), so the global toast stays silent — one place per error
 * (issue 14).
 */
interface ErrorPlacement {
  inlineError?: true;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorPlacement;
    mutationMeta: ErrorPlacement;
  }
}

export function createQueryClient(onError: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => (query.meta?.inlineError ? undefined : onError(error)),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) =>
        mutation.meta?.inlineError ? undefined : onError(error),
    }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
