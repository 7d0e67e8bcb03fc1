import { QueryClient } from '@tanstack/react-query';
import { isTransient } from '../../client/errors';

/**
 * The app's one QueryClient and the defaults every query starts from; a query states only
 * where it differs (citations and the style catalog never go stale, type-ahead never retries).
 */

// The records only change on import, so an answer a minute old is still good.
export const defaultStaleTime = 60_000;

/** A 4xx or a malformed answer comes back the same on retry; a dropped connection might not: one more try. */
export function retryTransientOnce(failures: number, error: unknown): boolean {
  return isTransient(error) && failures < 1;
}

export function createQueryClient(): QueryClient {
  // eslint-disable-next-line no-restricted-syntax -- the one place a QueryClient is made
  return new QueryClient({ defaultOptions: { queries: { staleTime: defaultStaleTime, retry: retryTransientOnce } } });
}
