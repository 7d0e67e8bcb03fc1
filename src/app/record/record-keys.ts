import type { DeploymentKey } from '../../deployments/schema';

/** The record feature's query keys (TanStack Query's key factories): the feature's prefix, then the kind of answer. */
const all = ['record'] as const;

export const recordKeys = {
  all,
  /** One record by identifier. */
  detail: (deployment: DeploymentKey, baseUrl: string, repoId: string) => [...all, 'detail', deployment, baseUrl, repoId] as const,
  /** A record's similar records. */
  similar: (deployment: DeploymentKey, baseUrl: string, repoId: string, q: string | undefined) =>
    [...all, 'similar', deployment, baseUrl, repoId, q] as const,
  /** Whether a catalog of this mirror holds an upstream record id. */
  inMirror: (deployment: DeploymentKey, baseUrl: string, id: string) => [...all, 'in-mirror', deployment, baseUrl, id] as const,
};
