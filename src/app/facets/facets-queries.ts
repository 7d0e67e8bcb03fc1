import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { facetCriteria, facetsUrl, fetchFacets, fetchFacetsWithAll, fetchTotal } from '../../client/facets';
import { yearFacet, type FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import { kindOf } from '../../formats/facet-kinds/registry';
import type { FacetCounts } from '../../formats/facets-response';
import type { Entries } from '../navigation/query-params';
import { facetKeys } from './facet-keys';
import { toggledEntries } from './facet-selection';

/** Counts of the facets, from `/facets` (one request for all) or, lazily, one rows=1 search per value. */

export interface FacetListOptions {
  readonly limit: number;
  readonly sort: 'count' | 'value';
}

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

/** More values of one facet, or another order, when the researcher asks for them. */
export function useFacetValues(
  deployment: Deployment,
  baseUrl: string,
  entries: Entries,
  facet: FacetDef,
  options: FacetListOptions | undefined,
  auth?: ApiAuth,
) {
  const params: (readonly [string, string])[] = [
    ...facetCriteria(entries),
    ['facet', facet.name],
    ['facet_limit', String(options?.limit ?? 10)],
    ['facet_sort', options?.sort ?? 'count'],
  ];
  const url = facetsUrl(baseUrl, params);
  return useQuery({
    queryKey: facetKeys.oneFacet(deployment.key, url),
    queryFn: async ({ signal }): Promise<FacetCounts | undefined> => (await fetchFacets(url, { signal, auth })).facets[0],
    enabled: options !== undefined,
    placeholderData: keepPreviousData,
  });
}

/**
 * Counts of a facet's known values from any spec server: one `rows=1` search per value,
 * read from X-Total-Count, only once the researcher opens the facet.
 */
export function useLazyCounts(deployment: Deployment, baseUrl: string, entries: Entries, facet: FacetDef, open: boolean, auth?: ApiAuth) {
  return useQuery({
    queryKey: facetKeys.valueTotals(deployment.key, facet.name, baseUrl, facetCriteria(entries)),
    queryFn: async ({ signal }) => {
      const values = facet.values ?? [];
      const counts = await Promise.all(
        values.map(async (value) => {
          const params = facetValueParams(deployment, facet, value);
          return params ? fetchTotal(baseUrl, toggledEntries(entries, params, true), { signal, auth }) : undefined;
        }),
      );
      return new Map(values.map((value, index) => [value, counts[index]]));
    },
    enabled: open,
  });
}
