import type { FacetCriterion, FacetDef } from '../deployments/facets';
import type { Deployment } from '../deployments/schema';
import { formatDay } from './dates';

/**
 * The search parameters that select one facet value: what a `/facets` count was counted
 * by, and what the app adds when a researcher ticks the value. Undefined for a value the
 * criterion cannot express (a malformed year, a phrase that is all quotes).
 */
export function facetValueParams(deployment: Deployment, facet: FacetDef, value: string): Record<string, string> | undefined {
  return criterionParams[facet.criterion.kind](deployment, facet.criterion as never, value);
}

type ParamsOf<C extends FacetCriterion> = (deployment: Deployment, criterion: C, value: string) => Record<string, string> | undefined;

const criterionParams: { [K in FacetCriterion['kind']]: ParamsOf<Extract<FacetCriterion, { kind: K }>> } = {
  exact: (_, { param }, value) => ({ [param]: value }),
  extension: (_, { param }, value) => ({ [param]: value }),
  // The query language has no escape for a quote inside a phrase, so quotes become spaces.
  phrase: (_, { param }, value) => {
    const words = value.replaceAll('"', ' ').trim();
    return words ? { [param]: `"${words}"` } : undefined;
  },
  'date-range': (deployment, { field, unit }, value) => {
    const match = (unit === 'year' ? /^(\d{4})$/ : /^(\d{3})0s$/).exec(value);
    if (!match) return undefined;
    const first = unit === 'year' ? Number(match[1]) : Number(match[1]) * 10;
    const last = unit === 'year' ? first : first + 9;
    return {
      [`${field}_start`]: formatDay({ year: first, month: 1, day: 1 }, deployment.dateFormat),
      [`${field}_end`]: formatDay({ year: last, month: 12, day: 31 }, deployment.dateFormat),
    };
  },
};
