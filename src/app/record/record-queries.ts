import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { isTransient } from '../../client/errors';
import { fetchRecord } from '../../client/records';
import type { Deployment } from '../../deployments/schema';

/** One record by identifier. */
export function recordQuery(deployment: Deployment, baseUrl: string, repoId: string, auth?: ApiAuth) {
  return queryOptions({
    queryKey: ['record', deployment.key, baseUrl, repoId] as const,
    queryFn: ({ signal }) => fetchRecord(baseUrl, repoId, { deployment, signal, auth }),
    staleTime: 60_000,
    retry: (failures, error) => isTransient(error) && failures < 1,
  });
}

export function useRecord(deployment: Deployment, baseUrl: string, repoId: string, auth?: ApiAuth) {
  return useQuery(recordQuery(deployment, baseUrl, repoId, auth));
}
