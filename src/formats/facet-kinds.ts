import type { FacetCriterion, FacetDef } from '../deployments/facets';
import type { Deployment } from '../deployments/schema';
import { formatDay } from './dates';

/**
 * Facet criterion kinds as registry objects: how a value of a facet of that kind selects
 * records (the search parameters it stands for), how stored values count as one value,
 * where a record's values come from, and how a value reads. Adding a facet is a row of the
 * deployment table; a new way of selecting is one more object here.
 */
export interface FacetKind<C extends FacetCriterion = FacetCriterion> {
  /** The search parameters that select one value; undefined for a value the kind cannot express. */
  params(deployment: Deployment, criterion: C, value: string): Record<string, string> | undefined;
  /** Stored values compare as their exact-match parameter does, in any case ("English" = "english"). */
  readonly caseless: boolean;
  /** Values come from the record's date (years, decades), not from stored facet values. */
  readonly dated: boolean;
  /** How a value reads to people. */
  label(facet: FacetDef, value: string): string;
}

const asStored = (facet: FacetDef, value: string) => facet.valueLabels?.[value] ?? value;

const exactKind: FacetKind<Extract<FacetCriterion, { kind: 'exact' | 'extension' }>> = {
  params: (_, { param }, value) => ({ [param]: value }),
  caseless: true,
  dated: false,
  label: asStored,
};

export const facetKinds: { readonly [K in FacetCriterion['kind']]: FacetKind<Extract<FacetCriterion, { kind: K }>> } = {
  exact: exactKind,
  extension: exactKind,
  'date-range': {
    params: (deployment, { field, unit }, value) => {
      const match = (unit === 'year' ? /^(\d{4})$/ : /^(\d{3})0s$/).exec(value);
      if (!match) return undefined;
      const first = unit === 'year' ? Number(match[1]) : Number(match[1]) * 10;
      const last = unit === 'year' ? first : first + 9;
      return {
        [`${field}_start`]: formatDay({ year: first, month: 1, day: 1 }, deployment.dateFormat),
        [`${field}_end`]: formatDay({ year: last, month: 12, day: 31 }, deployment.dateFormat),
      };
    },
    caseless: false,
    dated: true,
    label: asStored,
  },
};

/** The registry object of a facet's criterion kind. */
export const kindOf = (facet: FacetDef): FacetKind => facetKinds[facet.criterion.kind];
