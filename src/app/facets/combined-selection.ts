import { facetFilterParam, type FacetFilterMode } from '../../formats/facet-filters';
import type { Entries } from '../navigation/query-params';

/**
 * Facets that combine, as the search URL holds them: each ticked value is a `facet.NAME`
 * entry and each excluded one an `exclude.NAME` entry, so a link restores the selection
 * and back/forward step through it. Any change is a new search from its first page.
 */

/** A value is selected, excluded, or neither. */
export type ValueState = FacetFilterMode | 'none';

export interface FacetFilters {
  readonly selected: readonly string[];
  readonly excluded: readonly string[];
}

const valuesOf = (entries: Entries, name: string) => entries.filter(([entry]) => entry === name).map(([, value]) => value);

export function facetFilters(entries: Entries, facet: string): FacetFilters {
  return {
    selected: valuesOf(entries, facetFilterParam('select', facet)),
    excluded: valuesOf(entries, facetFilterParam('exclude', facet)),
  };
}

export function valueState(filters: FacetFilters, value: string): ValueState {
  if (filters.selected.includes(value)) return 'select';
  return filters.excluded.includes(value) ? 'exclude' : 'none';
}

/**
 * The search with one value of a facet selected, excluded or neither (a value is never both),
 * the other entries kept in order, the new one last, back on page 1.
 */
export function withValueState(entries: Entries, facet: string, value: string, state: ValueState): [string, string][] {
  const names = new Set([facetFilterParam('select', facet), facetFilterParam('exclude', facet)]);
  const kept = entries
    .filter(([name, entry]) => name !== 'page' && !(names.has(name) && entry === value))
    .map(([name, entry]): [string, string] => [name, entry]);
  return state === 'none' ? kept : [...kept, [facetFilterParam(state, facet), value]];
}
