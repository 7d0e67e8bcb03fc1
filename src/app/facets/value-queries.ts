import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { facetCriteria, facetsUrl, fetchFacets, fetchTotal } from '../../client/facets';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import type { FacetCounts } from '../../formats/facets-response';
import type { Entries } from '../navigation/query-params';
import { facetKeys } from './facet-keys';
import { toggledEntries } from './facet-selection';

/**
 * What one facet asks for beyond the overview, when the researcher opens or widens it: more
 * values, another order, or (servers without `/facets`) one count per known value. Loaded
 * with the filter column, not with the page.
 */

export interface FacetListOptions {
  readonly limit: number;
  readonly sort: 'count' | 'value';
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
