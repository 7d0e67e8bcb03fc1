import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import type { FacetsResponse } from '../../formats/facets-response';
import { parseWholeNumberValue } from '../../formats/param-values';
import type { FacetRequest, FacetsResult } from '../store/types';
import { BadRequest } from './criteria';
import { nearest } from '../../formats/nearest';
import type { QueryPair } from './query-string';

/**
 * `{base}/facets` (an extension, docs/extensions.md): the list endpoint's criteria plus the
 * facets to count and how to page their values. Paging and ordering the records themselves
 * mean nothing here, so those parameters are refused rather than ignored.
 */

export const facetLimits = { defaultLimit: 10, maxLimit: 100, maxFacetLimit: 1000, maxOffset: 100_000, containsLength: 200 } as const;

const ownNames = new Set(['facet', 'facet_limit', 'facet_offset', 'facet_sort', 'facet_contains']);
const recordsOnly = new Set(['sort', 'order', 'rows', 'page']);
const perFacetLimit = 'facet_limit.';

export function parseFacetsRequest(
  deployment: Deployment,
  pairs: readonly QueryPair[],
): { criteria: QueryPair[]; requests: FacetRequest[] } {
  const names: string[] = [];
  const single = new Map<string, string>();
  const perFacet = new Map<string, string>();
  const criteria: QueryPair[] = [];
  for (const [name, value] of pairs) {
    if (recordsOnly.has(name)) throw new BadRequest(`${name} is a parameter of {base}/records; facets count every matching record.`, name);
    if (name.startsWith(perFacetLimit)) {
      if (perFacet.has(name)) throw new BadRequest(`${name} is given more than once; give each parameter at most once.`, name);
      perFacet.set(name, value.trim());
    } else if (!ownNames.has(name)) criteria.push([name, value]);
    else if (name === 'facet') names.push(value.trim());
    else if (single.has(name)) throw new BadRequest(`${name} is given more than once; give each parameter at most once.`, name);
    else single.set(name, value.trim());
  }
  const known = deployment.facets.map((facet) => facet.name);
  const checkFacet = (name: string, parameter: string) => {
    if (known.includes(name)) return;
    const suggestion = nearest(name, known);
    const hint = suggestion ? `Did you mean '${suggestion}'?` : `It must be one of ${known.join(', ')}.`;
    throw new BadRequest(`${parameter} names no facet of this deployment: '${name.slice(0, 60)}'. ${hint}`, parameter);
  };
  for (const name of names) checkFacet(name, 'facet');
  const limit = wholeNumber(single.get('facet_limit'), 'facet_limit', 1, facetLimits.maxLimit) ?? facetLimits.defaultLimit;
  const limits = new Map<string, number>();
  for (const [parameter, value] of perFacet) {
    checkFacet(parameter.slice(perFacetLimit.length), parameter);
    const own = wholeNumber(value, parameter, 1, facetLimits.maxFacetLimit);
    if (own !== undefined) limits.set(parameter.slice(perFacetLimit.length), own);
  }
  const offset = wholeNumber(single.get('facet_offset'), 'facet_offset', 0, facetLimits.maxOffset) ?? 0;
  const sort = single.get('facet_sort') || 'count';
  if (sort !== 'count' && sort !== 'value')
    throw new BadRequest(`facet_sort must be count or value; got '${sort.slice(0, 40)}'.`, 'facet_sort');
  const contains = single.get('facet_contains') || undefined;
  if (contains !== undefined) {
    if (names.length !== 1)
      throw new BadRequest('facet_contains searches the values of one facet: give exactly one facet=NAME with it.', 'facet_contains');
    if (contains.length > facetLimits.containsLength)
      throw new BadRequest(`facet_contains is too long: at most ${facetLimits.containsLength} characters.`, 'facet_contains');
  }
  const chosen = names.length ? [...new Set(names)] : known;
  return {
    criteria,
    requests: chosen.map((name) => ({ name, limit: limits.get(name) ?? limit, offset, sort, ...(contains ? { contains } : {}) })),
  };
}

function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = value === '0' ? 0 : parseWholeNumberValue(value, max);
  if (number === undefined || number < min)
    throw new BadRequest(
      `${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}; got '${value.slice(0, 40)}'.`,
      name,
    );
  return number;
}

/** The response body: each value with the parameters that select it. */
export function facetsBody(deployment: Deployment, result: FacetsResult, requests: readonly FacetRequest[]): FacetsResponse {
  return {
    total: result.total,
    combinable: true,
    facets: result.facets.map((counts, index) => {
      const facet = deployment.facets.find((candidate) => candidate.name === counts.name)!;
      const { offset } = requests[index]!;
      const values = counts.values.flatMap(({ value, count, variants }) => {
        const params = facetValueParams(deployment, facet, value);
        return params ? [{ value, count, params, ...(variants ? { variants: [...variants] } : {}) }] : [];
      });
      return {
        name: facet.name,
        label: facet.label,
        distinct: counts.distinct,
        offset,
        values,
        more: offset + counts.values.length < counts.distinct,
        selected: [...counts.selected],
        excluded: [...counts.excluded],
      };
    }),
  };
}
