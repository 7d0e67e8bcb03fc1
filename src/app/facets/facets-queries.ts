import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { facetsUrl, fetchFacetsWithAll } from '../../client/facets';
import { yearFacet } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { kindOf } from '../../formats/facet-kinds/registry';
import type { Entries } from '../navigation/query-params';
import { facetKeys } from './facet-keys';

/** Counts of every facet of a search from `/facets` in one request (the filter column, the advanced form's suggestions). */

/** Every year the chart can draw, in the request that counts the other facets' first values. */
export const allYears = 1000;

/**
 * Every facet of the search from a server that offers `/facets`, every year of the year
 * facet included (for the chart); the previous counts stay while new ones load.
 */
export function useServerFacets(deployment: Deployment, baseUrl: string, entries: Entries, auth: ApiAuth | undefined, enabled: boolean) {
  const year = yearFacet(deployment);
  return useQuery({
    queryKey: facetKeys.overview(deployment.key, facetsUrl(baseUrl, entries)),
    queryFn: ({ signal }) => fetchFacetsWithAll(baseUrl, entries, year?.name, allYears, { signal, auth }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * Values the exact-match parameters of the advanced form can suggest: the counted values of
 * the search's facets (from the same request the filter column makes), else nothing.
 */
export function useFacetSuggestions(
  deployment: Deployment,
  baseUrl: string,
  entries: Entries,
  auth: ApiAuth | undefined,
  enabled: boolean,
): Record<string, string[]> {
  const { data } = useServerFacets(deployment, baseUrl, entries, auth, enabled);
  const suggestions: Record<string, string[]> = {};
  for (const facet of deployment.facets) {
    const param = kindOf(facet).suggests(facet.criterion);
    if (param === undefined) continue;
    const values = data?.facets.find((counts) => counts.name === facet.name)?.values.map((entry) => entry.value) ?? [];
    if (values.length) suggestions[param] = values;
  }
  return suggestions;
}
