/**
 * The combinable-facets extension's own parameters (docs/extensions.md): `facet.NAME=value`
 * selects a value of facet NAME (values of one facet OR'd, facets AND'd) and
 * `exclude.NAME=value` leaves its records out. Both repeat, unlike every spec parameter.
 */

export type FacetFilterMode = 'select' | 'exclude';

const prefixes: Readonly<Record<FacetFilterMode, string>> = { select: 'facet.', exclude: 'exclude.' };

/** The query parameter that selects or excludes values of a facet: `facet.language`, `exclude.language`. */
export const facetFilterParam = (mode: FacetFilterMode, facet: string) => `${prefixes[mode]}${facet}`;

/** What a query parameter name means to the extension, or undefined for any other parameter. */
export function readFacetFilterParam(name: string): { readonly mode: FacetFilterMode; readonly facet: string } | undefined {
  for (const mode of ['select', 'exclude'] as const) {
    const prefix = prefixes[mode];
    if (name.startsWith(prefix) && name.length > prefix.length) return { mode, facet: name.slice(prefix.length) };
  }
  return undefined;
}

/** The per-facet page size of `/facets` (`facet_limit.publication_year=1000`). */
export const facetLimitParam = (facet: string) => `facet_limit.${facet}`;
