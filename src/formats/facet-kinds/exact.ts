import type { FacetCriterion } from '../../deployments/facets';
import { asStored, valuesOf, type FacetKind } from './facet-kind';

/** A value selected by the spec's exact-match (or yes/no) parameter of the facet: `language=English`. */
export const exactKind: FacetKind<Extract<FacetCriterion, { kind: 'exact' }>> = {
  params: (_, { param }, value) => ({ [param]: value }),
  paramNames: ({ param }) => [param],
  valuesIn: (_, { param }, entries) => valuesOf(entries, param),
  counts: () => ({ from: 'values' }),
  caseless: true,
  suggests: ({ param }) => param,
  chipWords: asStored,
};
