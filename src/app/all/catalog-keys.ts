import type { DeploymentKey } from '../../deployments/schema';

/** The all-catalogs feature's query keys (TanStack Query's key factories). */
const all = ['all-catalogs'] as const;

export const catalogKeys = {
  all,
  /** One catalog's best results for an all-catalogs search, by the URL asked. */
  search: (deployment: DeploymentKey, url: string) => [...all, 'search', deployment, url] as const,
};
