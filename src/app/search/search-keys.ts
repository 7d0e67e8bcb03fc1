import type { DeploymentKey } from '../../deployments/schema';

/**
 * The search feature's query keys (TanStack Query's key factories): the feature's prefix, then
 * the kind of answer, then what the answer depends on, so one prefix never holds two shapes.
 */
const all = ['search'] as const;

export const searchKeys = {
  all,
  /** Every page of one search (see searchIdentity), whatever page is shown. */
  pagesOf: (deployment: DeploymentKey, identity: string) => [...all, 'page', deployment, identity] as const,
  /** One page of results, by the exact API URL it comes from. */
  page: (deployment: DeploymentKey, identity: string, url: string) => [...all, 'page', deployment, identity, url] as const,
  /** "Did you mean" for a main-box query. */
  suggestion: (deployment: DeploymentKey, baseUrl: string, q: string | undefined) =>
    [...all, 'suggestion', deployment, baseUrl, q] as const,
};
