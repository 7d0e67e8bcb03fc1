import { facetLimitParam } from '../formats/facet-filters';
import { facetsResponseSchema, type FacetsResponse } from '../formats/facets-response';
import { ApiRequestError, InvalidResponseError } from './errors';
import { getText, type RequestOptions } from './http';
import { describeIssue, parseJson, readTotal } from './responses';
import { queryString, type ParamEntries } from './urls';

/**
 * Counts by value, from a server that offers the `/facets` extension (the local one does;
 * config.json says which), or lazily from any spec server's `X-Total-Count`.
 */

/** Parameters that page or order records, which facet counts ignore. */
const recordsOnly = new Set(['sort', 'order', 'rows', 'page']);

export const facetCriteria = (params: ParamEntries) => [...params].filter(([name]) => !recordsOnly.has(name));

export function facetsUrl(baseUrl: string, params: ParamEntries): string {
  return `${baseUrl.replace(/\/+$/, '')}/facets${queryString(facetCriteria(params))}`;
}

export async function fetchFacets(url: string, options: RequestOptions): Promise<FacetsResponse> {
  const body = parseJson(await getText(url, options), url);
  const parsed = facetsResponseSchema.safeParse(body);
  if (!parsed.success) throw new InvalidResponseError(url, `${describeIssue(parsed.error.issues[0]!, 'facets')}.`);
  return parsed.data;
}

/** Base URLs whose `/facets` refused the combinable extension's parameters: asked plainly from then on. */
const plainServers = new Set<string>();

/**
 * The facets of a search with one facet's values asked for in full (`facet_limit.NAME`, the
 * combinable extension), so a year chart needs no request of its own. A server without the
 * extension refuses the parameter with 400; it is asked again without it, and remembered.
 */
export async function fetchFacetsWithAll(
  baseUrl: string,
  params: ParamEntries,
  facet: string | undefined,
  limit: number,
  options: RequestOptions,
): Promise<FacetsResponse> {
  const plain = facetsUrl(baseUrl, params);
  if (facet === undefined || plainServers.has(baseUrl)) return fetchFacets(plain, options);
  try {
    return await fetchFacets(facetsUrl(baseUrl, [...params, [facetLimitParam(facet), String(limit)]]), options);
  } catch (error) {
    if (!(error instanceof ApiRequestError && error.status === 400)) throw error;
    const response = await fetchFacets(plain, options);
    plainServers.add(baseUrl);
    return response;
  }
}

/** How many records a search finds, by asking for one record and reading X-Total-Count (any spec server). */
export async function fetchTotal(baseUrl: string, params: ParamEntries, options: RequestOptions): Promise<number | undefined> {
  const url = `${baseUrl.replace(/\/+$/, '')}/records${queryString([...facetCriteria(params), ['rows', '1']])}`;
  return readTotal((await getText(url, options)).headers, url);
}
