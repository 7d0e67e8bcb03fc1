import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { fetchRecord, fetchRecordPage } from '../../client/records';
import { searchUrl } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { recordKeys } from './record-keys';

/** One record by identifier. */
export function recordQuery(deployment: Deployment, baseUrl: string, repoId: string, auth?: ApiAuth) {
  return queryOptions({
    queryKey: recordKeys.detail(deployment.key, baseUrl, repoId),
    queryFn: ({ signal }) => fetchRecord(baseUrl, repoId, { deployment, signal, auth }),
  });
}

export function useRecord(deployment: Deployment, baseUrl: string, repoId: string, auth?: ApiAuth) {
  return useQuery(recordQuery(deployment, baseUrl, repoId, auth));
}

/** How many similar records a record page lists. */
export const similarCount = 5;

/** The best matches of a record's similar-records search, the record itself left out. */
export function useSimilarRecords(deployment: Deployment, baseUrl: string, repoId: string, q: string | undefined, auth?: ApiAuth) {
  return useQuery({
    queryKey: recordKeys.similar(deployment.key, baseUrl, repoId, q),
    // One more than shown, so the record itself (usually the best match) can be dropped.
    queryFn: async ({ signal }) => {
      const page = await fetchRecordPage(
        searchUrl(baseUrl, [
          ['q', q!],
          ['rows', String(similarCount + 1)],
        ]),
        { deployment, signal, auth },
      );
      // With the server's word on which are generated demo records, so the list can say so.
      return { records: page.records.filter((record) => record.repo_id !== repoId).slice(0, similarCount), generated: page.generated };
    },
    enabled: q !== undefined,
  });
}
