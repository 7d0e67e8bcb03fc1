import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { kindOf } from '../../../formats/facet-kinds/registry';
import { recordFacetValues, valueFoldings, type FacetValue, type RecordFacetValues } from '../../../formats/value-folding';
import { normalizeKeyValue } from '../../../formats/keys';
import type { Criteria, FacetSelection, StoredRecord } from '../types';

/**
 * What both stores share about facets (src/deployments/facets.ts): the values a record is
 * counted under, how values group, order and page, and the criteria one value adds.
 */

/** The name a record's facet values carry beside its exact-match keys as the writer hands them to the facet columns (stored only there). */
export const facetKeyName = (facet: FacetDef) => `facet:${facet.name}`;

/** Where a facet's values come from in a stored record; undefined for years (the date column) and yes/no keys. */
function sourceOf(facet: FacetDef): ((stored: StoredRecord, facetValues: RecordFacetValues) => readonly FacetValue[]) | undefined {
  if (countSourceOf(facet).from !== 'values') return undefined;
  if (facet.field) return (_stored, facetValues) => facetValues(facet);
  if (facet.key === 'site') return (stored) => (stored.site ? [{ value: stored.site }] : []);
  return undefined;
}

/** Whether a facet's values are drawn under `facetKeyName` (else under its exact-match key). */
export const hasFacetRows = (facet: FacetDef) => sourceOf(facet) !== undefined;

/**
 * A record's facet values as a reader sees them (markup and entities resolved, spaces
 * collapsed), each value's group once (groupOf), as first seen.
 */
export function facetRowsOf(
  deployment: Deployment,
  stored: StoredRecord,
  facetValues: RecordFacetValues = recordFacetValues(stored.record),
): [string, string][] {
  const rows: [string, string][] = [];
  const groups = new Set<string>();
  for (const facet of deployment.facets) {
    const source = sourceOf(facet);
    if (!source) continue;
    const group = groupOf(facet);
    for (const { value, folded: known } of source(stored, facetValues)) {
      // A folded value is its group (groupOf).
      const folded = known ?? group(value);
      const seen = `${facet.name}\u0000${folded}`;
      // A value that folds to nothing (punctuation alone) could not be selected.
      if (!folded || groups.has(seen)) continue;
      groups.add(seen);
      rows.push([facetKeyName(facet), value]);
    }
  }
  return rows;
}

/**
 * The group a stored value counts in: values compare as their parameter does, so "English"
 * and "english" are one value (any case), and so are "Tokamaks" and "tokamak" (a subject's
 * folding, FacetDef `fold`).
 */
export function groupOf(facet: FacetDef): (value: string) => string {
  if (facet.fold) return valueFoldings[facet.fold];
  return isCaseless(facet) ? (value) => normalizeKeyValue(value) : (value) => value;
}

/** Whether a facet's values compare as their exact-match parameter does, in any case. */
export const isCaseless = (facet: FacetDef) => kindOf(facet).caseless;

/** Where the store reads the records of each of a facet's values (its kind says). */
export const countSourceOf = (facet: FacetDef) => kindOf(facet).counts(facet.criterion);

/** The facet's own selection, if the search has one. */
export const selectionOf = (criteria: Criteria, facet: string): FacetSelection | undefined =>
  criteria.selections?.find((selection) => selection.facet === facet);
