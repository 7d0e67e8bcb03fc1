import type { FacetCriterion } from '../../deployments/facets';
import { asStored, valuesOf, type FacetKind } from './facet-kind';

/**
 * A value selected by a parameter of the local server's own (`product_type=Dataset`,
 * docs/extensions.md), which only a server that advertises it takes: the advanced form has
 * no field of the spec for it to suggest values to.
 */
export const extensionKind: FacetKind<Extract<FacetCriterion, { kind: 'extension' }>> = {
  params: (_, { param }, value) => ({ [param]: value }),
  paramNames: ({ param }) => [param],
  valuesIn: (_, { param }, entries) => valuesOf(entries, param),
  counts: () => ({ from: 'values' }),
  caseless: true,
  suggests: () => undefined,
  chipWords: asStored,
};
