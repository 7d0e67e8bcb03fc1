import { keepPreviousData, partialMatchKey, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ApiAuth } from '../../client/auth';
import { fetchWorksPage, type RecordPage } from '../../client/records';
import type { Deployment } from '../../deployments/schema';
import { searchKeys } from './search-keys';

/**
 * One page of search results, keyed by the exact API URL it comes from and by the search
 * it belongs to (see searchIdentity), so paging can keep the previous page on screen.
 */

export function recordPageQuery(deployment: Deployment, identity: string, url: string, auth?: ApiAuth) {
  return queryOptions({
    queryKey: searchKeys.page(deployment.key, identity, url),
    // Asked grouped by work (the first page's URL carries group=work, later pages' Link targets too).
    queryFn: ({ signal }) => fetchWorksPage(url, { deployment, signal, auth }),
  });
}

/** `enabled` false: the search is not run at all (the box holds nothing to search for). */
export function useRecordPage(deployment: Deployment, identity: string, url: string, auth?: ApiAuth, enabled = true) {
  return useQuery({
    ...recordPageQuery(deployment, identity, url, auth),
    enabled,
    // Keep the previous page on screen while the next one of the same search loads.
    placeholderData: (previous: RecordPage | undefined, previousQuery) =>
      previousQuery && partialMatchKey(previousQuery.queryKey, searchKeys.pagesOf(deployment.key, identity))
        ? keepPreviousData(previous)
        : undefined,
  });
}

/** Fetches the linked next page in the background so "Next page" is instant. */
export function usePrefetchNext(deployment: Deployment, identity: string, nextUrl: string | undefined, auth?: ApiAuth): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (nextUrl) void queryClient.prefetchQuery(recordPageQuery(deployment, identity, nextUrl, auth));
  }, [queryClient, deployment, identity, nextUrl, auth]);
}
