import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ApiAuth } from '../../client/auth';
import { facetCriteria, facetsUrl, fetchFacets } from '../../client/facets';
import { yearFacet, type FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetLimitParam } from '../../formats/facet-filters';
import type { FacetCounts } from '../../formats/facets-response';
import type { Entries } from '../navigation/query-params';
import { facetKeys } from './facet-keys';
import { allYears } from './facets-queries';
import { withoutYearRange } from './year-range';

/** What combinable facets ask for beyond the filter column's one request (loaded with the column, not the page). */

/**
 * The year chart's counts while a date range narrows the search: the same search without
 * its date criterion, so the years outside the range stay drawn (and can be chosen).
 */
export function useUnrangedYears(deployment: Deployment, baseUrl: string, entries: Entries, auth: ApiAuth | undefined, enabled: boolean) {
  const year = yearFacet(deployment);
  const url =
    year && facetsUrl(baseUrl, [...withoutYearRange(year, entries), ['facet', year.name], [facetLimitParam(year.name), String(allYears)]]);
  return useQuery({
    queryKey: facetKeys.oneFacet(deployment.key, url),
    queryFn: async ({ signal }): Promise<FacetCounts | undefined> => (await fetchFacets(url!, { signal, auth })).facets[0],
    enabled: enabled && url !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** How many more values "Show more" and a facet's search box ask for at a time. */
const valuesPage = 20;

/**
 * Pages of one facet's values in count order from `offset` (after the first page the overview
 * holds), or only those containing `contains` from the first (the facet's search box).
 */
export function useFacetPages(
  deployment: Deployment,
  baseUrl: string,
  entries: Entries,
  facet: FacetDef,
  from: { readonly offset: number; readonly contains: string },
  enabled: boolean,
  auth?: ApiAuth,
) {
  const base = [...facetCriteria(entries), ['facet', facet.name], ['facet_limit', String(valuesPage)]] as const;
  const contains = from.contains.trim();
  return useInfiniteQuery({
    queryKey: facetKeys.valuePages(deployment.key, facetsUrl(baseUrl, base), contains, from.offset),
    queryFn: async ({ signal, pageParam }): Promise<FacetCounts | undefined> => {
      const params = [...base, ['facet_offset', String(pageParam)], ...(contains ? [['facet_contains', contains] as const] : [])] as const;
      return (await fetchFacets(facetsUrl(baseUrl, params), { signal, auth })).facets[0];
    },
    initialPageParam: contains ? 0 : from.offset,
    getNextPageParam: (last) => (last?.more ? last.offset + last.values.length : undefined),
    enabled,
    placeholderData: keepPreviousData,
  });
}
