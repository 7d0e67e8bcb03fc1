import type { FacetCriterion, FacetDef } from '../../deployments/facets';
import { dateRangeKind } from './date-range';
import { exactKind } from './exact';
import { extensionKind } from './extension';
import type { FacetKind } from './facet-kind';

/** Each criterion kind of the deployment table's facets, by name: the compiler asks for a new kind's object here. */
export const facetKinds: { readonly [K in FacetCriterion['kind']]: FacetKind<Extract<FacetCriterion, { kind: K }>> } = {
  exact: exactKind,
  extension: extensionKind,
  'date-range': dateRangeKind,
};

/** The registry object of a facet's criterion kind. */
export const kindOf = (facet: FacetDef): FacetKind => facetKinds[facet.criterion.kind];
