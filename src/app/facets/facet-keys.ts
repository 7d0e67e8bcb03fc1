import type { DeploymentKey } from '../../deployments/schema';

/**
 * The facets feature's query keys (TanStack Query's key factories): the feature's prefix, then
 * the kind of answer, so the response with every facet and one facet's counts never share a key.
 */
const all = ['facets'] as const;

export const facetKeys = {
  all,
  /** Every facet of a search, with every year of the year facet (the filter column's one request). */
  overview: (deployment: DeploymentKey, url: string) => [...all, 'overview', deployment, url] as const,
  /** One facet's counts from one `/facets` URL (more values, another order, the unranged years). */
  oneFacet: (deployment: DeploymentKey, url: string | undefined) => [...all, 'one', deployment, url] as const,
  /** Totals of a facet's known values, one `rows=1` search each (servers without `/facets`). */
  valueTotals: (deployment: DeploymentKey, facet: string, baseUrl: string, criteria: readonly (readonly [string, string])[]) =>
    [...all, 'value-totals', deployment, facet, baseUrl, criteria] as const,
  /** Pages of one facet's values from an offset, or those containing some text. */
  valuePages: (deployment: DeploymentKey, url: string, contains: string, offset: number) =>
    [...all, 'value-pages', deployment, url, contains, offset] as const,
};
