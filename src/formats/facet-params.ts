import type { FacetDef } from '../deployments/facets';
import type { Deployment } from '../deployments/schema';
import { kindOf } from './facet-kinds';

/**
 * The search parameters that select one facet value: what a `/facets` count was counted
 * by, and what the app adds when a researcher ticks the value. Undefined for a value the
 * criterion cannot express (a malformed year, a phrase that is all quotes).
 */
export function facetValueParams(deployment: Deployment, facet: FacetDef, value: string): Record<string, string> | undefined {
  return kindOf(facet).params(deployment, facet.criterion, value);
}
