import type { FacetDef } from '../deployments/facets';
import type { Deployment } from '../deployments/schema';
import type { Entries } from './facet-kinds/facet-kind';
import { kindOf } from './facet-kinds/registry';

/**
 * A facet value and the search parameters that select it, both ways, for any kind of facet
 * (./facet-kinds/): the value's parameters, and the values a search's parameters select.
 */

/**
 * The search parameters that select one facet value: what a `/facets` count was counted
 * by, and what the app adds when a researcher ticks the value. Undefined for a value the
 * criterion cannot express (a malformed year, a phrase that is all quotes).
 */
export function facetValueParams(deployment: Deployment, facet: FacetDef, value: string): Record<string, string> | undefined {
  return kindOf(facet).params(deployment, facet.criterion, value);
}

/** The search parameters a facet's values are selected by. */
export const facetParamNames = (facet: FacetDef): string[] => kindOf(facet).paramNames(facet.criterion);

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a search holds every one of a value's parameters (values in any case). */
export function isSelected(entries: Entries, params: Readonly<Record<string, string>>): boolean {
  return Object.entries(params).every(([name, value]) =>
    entries.some(([entryName, entryValue]) => entryName === name && same(entryValue, value)),
  );
}

/**
 * The values of a facet a search is filtered by (read back from its parameters), so they
 * stay listed and ticked even when they are not among the values counted.
 */
export function selectedValues(deployment: Deployment, facet: FacetDef, entries: Entries): string[] {
  return kindOf(facet)
    .valuesIn(deployment, facet.criterion, entries)
    .filter((value) => {
      const params = facetValueParams(deployment, facet, value);
      return params !== undefined && isSelected(entries, params);
    });
}
